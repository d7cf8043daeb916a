"""Every formula, algorithm, masking method, data set and experiment of the explorer.

numpy, pandas and scipy only: nothing here imports widgets or plotting
(``tests/test_layering.py`` checks it).
"""
