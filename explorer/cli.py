"""``privacy-explorer``: serve the explorer as a Voilà web app, or run an experiment.

    privacy-explorer [--port 8866] [--host 127.0.0.1] [--no-browser] [--preheat] [--notebooks]
    privacy-explorer --demo [--max-kernels N] [--pool N] [--class N] [--no-browser]
    privacy-explorer experiment mdrr-table1 --runs N --out results.csv
    privacy-explorer --binder-link

Every server runs the hardened Voilà of :mod:`explorer.demo`: client websocket frames
are checked before they are read, no traceback text is sent to a page, closing a
tab stops its kernel, kernels whose page is gone are culled (busy or idle), notebook
sources are stripped, cell execution has a time limit and the websocket message
limit fits the CSV upload limit.  ``--demo`` adds the public-demo profile: a cap on
live kernels (beyond it a 503 "demo is full" page with Retry-After), a pool of
preheated kernels, a Content-Security-Policy and a long IOPub timeout, so that a
class of 30 opening the link at once gets rendered pages, never blank ones.  See
the documentation page "Deploying as a public demo".
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from explorer.core.datasets import DEFAULT_MAX_BYTES

__all__ = ["main", "notebooks_dir", "voila_config", "binder_link", "repository_url", "DEFAULT_PORT"]

DEFAULT_PORT = 8866
#: Kernel culling (seconds): every CULL_INTERVAL, kernels idle for CULL_IDLE_TIMEOUT, and kernels
#: (busy or idle) with no page connected and no activity for CULL_UNCONNECTED_TIMEOUT.
CULL_INTERVAL = 30
CULL_IDLE_TIMEOUT = 600
CULL_UNCONNECTED_TIMEOUT = 60
#: Time limit for the notebook's cells at start-up (seconds).
EXECUTION_TIMEOUT = 120
#: How long Voilà waits for a cell's output (Voilà's default of 4 s blanks pages under load).
IOPUB_TIMEOUT = EXECUTION_TIMEOUT
#: Preheated kernels kept ready by ``--demo`` (each holds the rendered landing view).
DEMO_POOL_SIZE = 2
#: Kernels starting and running the app notebook at once with --demo (more visitors queue).
DEMO_MAX_STARTING = 2 * (os.cpu_count() or 1)
#: Seconds a refused visitor is told to wait before retrying.
RETRY_AFTER = 60
#: The websocket message limit: the upload limit plus base64/JSON overhead must pass (measured: larger uploads fail silently).
WEBSOCKET_MAX_MESSAGE_SIZE = int(DEFAULT_MAX_BYTES * 1.5) + (1 << 20)


def notebooks_dir() -> Path:
    """The notebooks: shipped inside the wheel (``explorer/_notebooks``) or, in a checkout, ``notebooks/``."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "_notebooks", package.parent / "notebooks"):
        if (candidate / "app.ipynb").is_file():
            return candidate
    raise FileNotFoundError("the explorer's notebooks were not found next to the package; reinstall it")


def repository_url() -> str:
    """The repository's address: ``[project.urls] Repository`` of the package's metadata (``pyproject.toml``)."""
    from importlib import metadata

    try:
        urls = metadata.metadata("privacy-explorer").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        urls = []
    for item in urls:
        label, _, url = item.partition(",")
        if label.strip().lower() == "repository":
            return url.strip()
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"     # a checkout that is not installed
    if pyproject.is_file():
        import re

        found = re.search(r'^Repository\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M)
        if found:
            return found.group(1)
    raise FileNotFoundError("the repository's address is not in the package's metadata; reinstall it")


def binder_link(repository: str | None = None) -> str:
    """The Binder link that opens the app itself from the repository (a GitHub address).

    Examples
    --------
    >>> binder_link("https://github.com/someone/explorer")
    'https://mybinder.org/v2/gh/someone/explorer/HEAD?urlpath=voila%2Frender%2Fnotebooks%2Fapp.ipynb'
    """
    url = (repository or repository_url()).rstrip("/")
    prefix = "https://github.com/"
    if not url.startswith(prefix) or url.count("/") != 4:
        raise ValueError(f"repository must be a GitHub address https://github.com/OWNER/NAME, got {url!r}")
    return f"https://mybinder.org/v2/gh/{url[len(prefix):]}/HEAD?urlpath=voila%2Frender%2Fnotebooks%2Fapp.ipynb"


def voila_config(*, port: int = DEFAULT_PORT, host: str = "127.0.0.1", open_browser: bool = True,
                 preheat: bool = False, demo: bool = False, max_kernels: int | None = None,
                 pool: int | None = None, class_size: int = 0, execution_timeout: float | None = None,
                 server_id: str = ""):
    """The traitlets configuration of the Voilà server (see the module docstring).

    ``demo`` turns on the public-demo profile; ``max_kernels`` caps live visitors' kernels
    (default with ``demo``: :func:`explorer.demo.kernels.default_kernel_cap`, else no cap; 0 is
    no cap); ``pool`` is the number of preheated kernels (default ``DEMO_POOL_SIZE`` with
    ``demo``, 1 with ``preheat``, else 0).  ``class_size`` (``--class N``, with ``demo``) keeps a pool
    of N ready kernels for a class and raises the default cap to at least N; the status page ``/class``
    says when the class is ready.  ``execution_timeout`` is the time limit of a notebook cell at start-up
    (default ``EXECUTION_TIMEOUT``).  ``server_id`` names this server among several behind one proxy: its
    kernel ids start with it, and the proxy routes each kernel's websocket by that
    (``deploy/nginx/privacy-explorer-cluster.conf``).
    """
    from traitlets.config import Config

    from explorer.demo.kernels import default_kernel_cap
    from explorer.demo.server import CONTENT_SECURITY_POLICY, TEMPLATE_NAME

    config = Config()
    config.Voila.port = port
    # Serve on the address printed, or stop and say the port is taken: Voilà would otherwise move to another
    # port unannounced, away from the address a class was given and from a proxy's upstream.
    config.Voila.port_retries = 0
    config.Voila.ip = host
    config.Voila.open_browser = open_browser
    settings = {"websocket_max_message_size": WEBSOCKET_MAX_MESSAGE_SIZE,
                # The page reads the _xsrf cookie to send it back with its shutdown request.
                "xsrf_cookie_kwargs": {"samesite": "Strict"}}
    config.Voila.kernel_websocket_connection_class = "explorer.demo.websocket.SafeKernelWebsocketConnection"
    config.VoilaConfiguration.multi_kernel_manager_class = "explorer.demo.kernels.DemoKernelManager"
    config.VoilaConfiguration.template = TEMPLATE_NAME   # Voilà's "lab" page, no CDN stylesheets
    config.VoilaConfiguration.strip_sources = True
    config.VoilaConfiguration.show_tracebacks = False
    if class_size < 0:
        raise ValueError(f"class_size must be >= 0, got {class_size}")
    timeout = EXECUTION_TIMEOUT if execution_timeout is None else float(execution_timeout)
    if timeout <= 0:
        raise ValueError(f"execution_timeout must be > 0, got {execution_timeout}")
    config.VoilaExecutor.timeout = timeout
    config.VoilaExecutor.iopub_timeout = timeout if execution_timeout is not None else IOPUB_TIMEOUT
    config.VoilaExecutor.show_tracebacks = False
    # nbclient keeps every widget's state from the render for notebook metadata that Voilà never
    # writes: a copy per render, held by every preheated kernel's renderer.
    config.VoilaExecutor.store_widget_state = False
    config.MappingKernelManager.cull_interval = CULL_INTERVAL
    config.MappingKernelManager.cull_idle_timeout = CULL_IDLE_TIMEOUT
    config.MappingKernelManager.cull_connected = True
    config.MappingKernelManager.allow_tracebacks = False
    config.DemoKernelManager.cull_unconnected_timeout = CULL_UNCONNECTED_TIMEOUT
    if server_id:
        config.DemoKernelManager.server_id = server_id
    if max_kernels is None:
        max_kernels = max(default_kernel_cap(), class_size) if demo else 0
    if max_kernels < 0:
        raise ValueError(f"max_kernels must be >= 0, got {max_kernels}")
    config.DemoVoila.kernel_cap = max_kernels
    config.DemoVoila.retry_after = RETRY_AFTER
    config.DemoVoila.max_starting = DEMO_MAX_STARTING if demo else 0
    if pool is None:
        pool = class_size or (DEMO_POOL_SIZE if demo else int(preheat))
    if pool < 0:
        raise ValueError(f"pool must be >= 0, got {pool}")
    if pool:
        config.VoilaConfiguration.preheat_kernel = True
        config.VoilaConfiguration.default_pool_size = pool
    if class_size:
        config.DemoVoila.class_size = class_size
        config.ReadyPoolMixin.class_size = class_size
    if demo:
        settings["headers"] = {"Content-Security-Policy": CONTENT_SECURITY_POLICY,
                               "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff"}
    config.Voila.tornado_settings = settings
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
    parser.add_argument("--demo", action="store_true",
                        help="public-demo profile: kernel cap, preheated pool, Content-Security-Policy "
                             "(see the 'Deploying as a public demo' documentation)")
    parser.add_argument("--max-kernels", type=int, default=None, metavar="N",
                        help="most visitors' kernels at once; beyond, a 503 'demo is full' page "
                             "(default with --demo: from the machine's memory; 0: no cap)")
    parser.add_argument("--pool", type=int, default=None, metavar="N",
                        help=f"preheated kernels kept ready (default {DEMO_POOL_SIZE} with --demo)")
    parser.add_argument("--class", dest="class_size", type=int, default=0, metavar="N",
                        help="before a class of N: keep N kernels ready (a pool of N, refilled only when no page "
                             "is being served); /class on the server says when the class is ready")
    parser.add_argument("--server-id", default="", metavar="ID",
                        help="name of this server among several behind one nginx (letters and digits): its kernel "
                             "ids start with ID_, by which the proxy sends each page's websocket to this server")
    parser.add_argument("--execution-timeout", type=float, default=None, metavar="SECONDS",
                        help=f"time limit of a notebook cell at start-up (default {EXECUTION_TIMEOUT})")
    parser.add_argument("--notebooks", action="store_true",
                        help="serve the folder of teaching notebooks instead of the app alone")
    parser.add_argument("--binder-link", action="store_true",
                        help="print the Binder link that opens the app from the repository, and exit")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "experiment":
        try:
            from explorer.core.mdrr.experiments import cli as experiment_cli
        except ImportError:
            print("privacy-explorer: the experiments are not available in this build", file=sys.stderr)
            return 2
        return int(experiment_cli(argv[1:]) or 0)
    args = _parser().parse_args(argv)
    if args.binder_link:
        print(binder_link())
        return 0
    if not 0 < args.port < 65536:
        print(f"privacy-explorer: --port must be between 1 and 65535, got {args.port}", file=sys.stderr)
        return 2
    for name in ("max_kernels", "pool", "class_size"):
        if (getattr(args, name) or 0) < 0:
            print(f"privacy-explorer: --{name.replace('_size', '').replace('_', '-')} must be >= 0, got "
                  f"{getattr(args, name)}", file=sys.stderr)
            return 2
    if args.class_size and not args.demo:
        print("privacy-explorer: --class needs --demo", file=sys.stderr)
        return 2
    if args.server_id and not (args.server_id.isascii() and args.server_id.isalnum() and len(args.server_id) <= 16):
        print(f"privacy-explorer: --server-id must be 1-16 letters and digits, got {args.server_id!r}", file=sys.stderr)
        return 2
    if args.execution_timeout is not None and args.execution_timeout <= 0:
        print(f"privacy-explorer: --execution-timeout must be > 0, got {args.execution_timeout}", file=sys.stderr)
        return 2
    from explorer.demo.server import DemoVoila

    folder = notebooks_dir()
    target = folder if args.notebooks else folder / "app.ipynb"
    config = voila_config(port=args.port, host=args.host, open_browser=not args.no_browser, preheat=args.preheat,
                          demo=args.demo, max_kernels=args.max_kernels, pool=args.pool, class_size=args.class_size,
                          execution_timeout=args.execution_timeout, server_id=args.server_id)
    cap = config.DemoVoila.kernel_cap
    pool = config.VoilaConfiguration.get("default_pool_size", 0) if "preheat_kernel" in config.VoilaConfiguration \
        else 0
    print(f"privacy-explorer: serving {target.name} on http://{args.host}:{args.port}/"
          f" (kernel cap {cap or 'none'}, preheated pool {pool})", flush=True)
    if args.class_size:
        print(f"privacy-explorer: class mode: filling a pool of {args.class_size} ready kernels; "
              f"http://{args.host}:{args.port}/class says when the class is ready", flush=True)
    DemoVoila.launch_instance(argv=[str(target)], config=config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
