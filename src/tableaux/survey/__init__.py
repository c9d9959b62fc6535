"""Many deals at once: the solver's surveys and the fair player's, run in parallel and kept in result files.

:mod:`.solver` solves a range of deals resumably; :mod:`.fair` plays them without peeking; :mod:`.parallel`
runs either on local worker processes or a Dask cluster; :mod:`.files` reads and appends the JSON-lines
result files (gzip allowed) and checks that a resumed run matches; :mod:`.plot` draws a survey.
"""
