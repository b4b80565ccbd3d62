"""`python -m lorekeeper` is the `lorekeeper` command."""

from lorekeeper.entry import main

if __name__ == "__main__":
    main()
