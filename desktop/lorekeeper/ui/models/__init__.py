"""Table models (model/view) for the panels: column constants, display/decoration/tooltip roles.

Models hold plain dataclasses handed over by workers; large ones (eval history) load lazily by
pages through `fetchMore`, in a worker.
"""
