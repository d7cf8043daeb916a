"""Serving the explorer as a public demo (the ``privacy-explorer --demo`` profile).

* :mod:`explorer.demo.server`: Voilà with a kernel cap (503 "demo is full" page),
  the tab-close shutdown fix, 4xx for malformed paths;
* :mod:`explorer.demo.websocket`: the kernel websocket with client frames checked
  before they are deserialized and traceback text removed from kernel messages;
* :mod:`explorer.demo.kernels`: culling of kernels whose page is gone, busy or idle,
  and the default kernel cap from the machine's memory;
* :mod:`explorer.demo.kernel`: hooks the app notebook installs in its kernel.

The modules are imported on use: the app's kernel imports only
:mod:`explorer.demo.kernel`, and the server modules need Voilà and jupyter_server.
See the documentation page "Deploying as a public demo" (``docs/deploying.md``).
"""
