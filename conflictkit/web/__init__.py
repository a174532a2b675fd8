"""``conflictkit serve``: a local web app to run comparisons and review their findings.

Needs the ``web`` extra (``pip install 'conflictkit[web]'``: Starlette, uvicorn, python-multipart);
nothing outside this package imports it. The front end is plain HTML, CSS and JavaScript shipped
in ``static/`` and ``templates/``, with no build step.
"""
