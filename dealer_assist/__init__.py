"""The domain of dealer-assist, a folder per kind of knowledge, each a layer that imports only the
layers below it: `rules` (the game), `journal` (the hash-chained file), `table` (the table between
and around rounds), `play` (driving whole rounds), `history` (reading journals back), `text` (the
words people read), `analysis` (odds) and `commands`.

Pure Python: no Qt, serial, OpenCV or zbar here, so the same rules run at the table, in replay
and in every test.
"""
