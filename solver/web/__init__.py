"""The web page (``python -m tools.serve``): :func:`solver.web.app.create_app`."""
