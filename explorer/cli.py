"""``privacy-explorer``: serve the explorer as a Voilà web app, or run an experiment.

    privacy-explorer [--port 8866] [--host 127.0.0.1] [--no-browser] [--preheat] [--notebooks]
    privacy-explorer experiment mdrr-table1 --runs N --out results.csv

The server is configured for a public demo: idle kernels are culled (each page view
starts a kernel of about 100 MB that closing the tab does not stop), notebook
sources are stripped, tracebacks are never sent to the page, cell execution has a
time limit, and the websocket message limit fits the CSV upload limit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from explorer.core.datasets import DEFAULT_MAX_BYTES

__all__ = ["main", "notebooks_dir", "voila_config", "DEFAULT_PORT"]

DEFAULT_PORT = 8866
#: Kernel culling for a public demo (seconds).
CULL_INTERVAL = 60
CULL_IDLE_TIMEOUT = 600
#: Time limit for the notebook's cells at start-up (seconds).
EXECUTION_TIMEOUT = 120


def notebooks_dir() -> Path:
    """The notebooks: shipped inside the wheel (``explorer/_notebooks``) or, in a checkout, ``notebooks/``."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "_notebooks", package.parent / "notebooks"):
        if (candidate / "app.ipynb").is_file():
            return candidate
    raise FileNotFoundError("the explorer's notebooks were not found next to the package; reinstall it")


def voila_config(*, port: int = DEFAULT_PORT, host: str = "127.0.0.1", open_browser: bool = True,
                 preheat: bool = False):
    """The traitlets configuration of the Voilà server (public-demo settings)."""
    from traitlets.config import Config

    config = Config()
    config.Voila.port = port
    config.Voila.ip = host
    config.Voila.open_browser = open_browser
    # The upload limit plus base64/JSON overhead must pass the websocket (DELIVERY.md).
    config.Voila.tornado_settings = {"websocket_max_message_size": int(DEFAULT_MAX_BYTES * 1.5) + (1 << 20)}
    config.VoilaConfiguration.strip_sources = True
    config.VoilaConfiguration.show_tracebacks = False
    config.VoilaExecutor.timeout = EXECUTION_TIMEOUT
    config.VoilaExecutor.show_tracebacks = False
    config.MappingKernelManager.cull_interval = CULL_INTERVAL
    config.MappingKernelManager.cull_idle_timeout = CULL_IDLE_TIMEOUT
    config.MappingKernelManager.cull_connected = True
    if preheat:
        config.VoilaConfiguration.preheat_kernel = True
        config.VoilaConfiguration.default_pool_size = 1
    return config


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="privacy-explorer",
                                     description="Serve the privacy explorer as a Voilà web app.",
                                     epilog="Run 'privacy-explorer experiment --help' for the experiments.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to serve on (default %(default)s)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    parser.add_argument("--preheat", action="store_true",
                        help="keep one kernel with the app ready, so the first page opens faster")
    parser.add_argument("--notebooks", action="store_true",
                        help="serve the folder of teaching notebooks instead of the app alone")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "experiment":
        try:
            from explorer.core.experiments import cli as experiment_cli
        except ImportError:
            print("privacy-explorer: the experiments are not available in this build", file=sys.stderr)
            return 2
        return int(experiment_cli(argv[1:]) or 0)
    args = _parser().parse_args(argv)
    if not 0 < args.port < 65536:
        print(f"privacy-explorer: --port must be between 1 and 65535, got {args.port}", file=sys.stderr)
        return 2
    from voila.app import Voila

    folder = notebooks_dir()
    target = folder if args.notebooks else folder / "app.ipynb"
    config = voila_config(port=args.port, host=args.host, open_browser=not args.no_browser, preheat=args.preheat)
    print(f"privacy-explorer: serving {target.name} on http://{args.host}:{args.port}/", flush=True)
    Voila.launch_instance(argv=[str(target)], config=config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
