"""``fillomino serve``: a setter's workbench in the browser.

The page edits clues; after each edit it asks the server for independent analysis panels
(``panels.PANELS``: verdict, loose cells, count, suggestions), each computed with a budget in a
worker process that a newer edit kills (``workers``); while the setter looks at a grid, ``ahead``
works out the removal of each of its clues in the background. The web stack (Starlette, uvicorn) is an
optional extra, imported only by ``app`` and ``server``.
"""
