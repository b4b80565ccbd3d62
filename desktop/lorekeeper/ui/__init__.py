"""The desktop app. The only package that imports Qt (PySide6) and pyqtgraph.

`app.run_app` is the entry point; `workers.run_task` is how every panel runs work off the GUI
thread; `panels.PANELS` is the sidebar registry that later features extend by one line.
"""
