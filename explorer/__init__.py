"""The explorer: interactive views of randomized response, t-closeness, differential
privacy and the permutation paradigm, as Jupyter widgets served by Voilà.

``explorer.core`` is a plain numpy/pandas/scipy library; ``explorer.panels`` and
``explorer.app`` wire it to widgets.
"""

__version__ = "0.1.0"

from explorer.errors import ExplorerError  # noqa: E402

__all__ = ["__version__", "ExplorerError"]
