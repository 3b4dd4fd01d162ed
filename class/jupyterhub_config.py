"""JupyterHub's configuration for a zvmsim class (docs/class.md).

Started by ``python3 bootstrap.py class``. Instructors edit ``class.toml`` beside
this file (who may log in, the password, ports, culling); this file turns it
into JupyterHub settings and needs no editing for an ordinary class.

* Authenticator: JupyterHub's SharedPasswordAuthenticator. Students share one
  class password; ``[students] names`` limits who may log in (empty: any name).
  Instructors log in with a separate admin password and get the admin panel.
* Spawner: JupyterHub's SimpleLocalProcessSpawner. Each student's JupyterLab
  runs as a process of the hub's own user, with this toolkit's Python, in
  DATA_DIR/students/NAME; the first start copies notebooks/ there, so one
  student's edits never touch another's. (It does not isolate students from
  each other at the operating-system level: for that, Kubernetes, docs/class.md.)
* jupyterhub-idle-culler stops servers idle for ``idle_timeout`` seconds.
* ZVMSIM_CLASS_API_TOKEN, when set, registers an admin API token for the
  load test and the tests (benchmarks/class_load.py, tests/test_class.py).
"""

import importlib.util
import os
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "zvmsim_classroom", Path(__file__).resolve().parent.parent / "zvmsim" / "classroom.py"
)
classroom = sys.modules["zvmsim_classroom"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classroom)  # the standard-library part only: not the simulator

c = get_config()  # noqa: F821 - JupyterHub provides it
settings = classroom.load_settings()
user_password, admin_password = classroom.passwords(settings)
data = settings.data_dir
data.mkdir(parents=True, exist_ok=True)

# ---- where it listens; its state ----
c.JupyterHub.ip = settings.ip
c.JupyterHub.port = settings.port
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = settings.hub_port
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{settings.proxy_api_port}"
c.ConfigurableHTTPProxy.command = classroom.proxy_command() or ["configurable-http-proxy"]
c.ConfigurableHTTPProxy.pid_file = str(data / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{data / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(data / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(data / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops the students' servers

# ---- who may log in ----
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = user_password
c.SharedPasswordAuthenticator.admin_password = admin_password
c.Authenticator.admin_users = set(settings.instructors)
c.Authenticator.username_pattern = classroom.NAME.pattern
if settings.students:
    c.Authenticator.allowed_users = set(settings.students)
else:
    c.Authenticator.allow_all = True
c.Authenticator.allow_existing_users = True  # students added in the admin panel stay


# ---- each student's server: JupyterLab on their own copy of the notebooks ----
def _own_copy(spawner) -> None:
    """Before a student's server starts: copy notebooks/ for them the first time."""
    if classroom.copy_notebooks(settings, spawner.user.name):
        spawner.log.info("copied the notebooks for %s", spawner.user.name)


c.JupyterHub.spawner_class = "simple"  # SimpleLocalProcessSpawner: no system users needed
c.SimpleLocalProcessSpawner.home_dir_template = str(data / "students" / "{username}")
c.Spawner.notebook_dir = str(data / "students" / "{username}")
c.Spawner.pre_spawn_hook = _own_copy
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]  # this toolkit's Python
c.Spawner.args = ["--allow-root"] if os.geteuid() == 0 else []
c.Spawner.default_url = settings.default_url
c.Spawner.start_timeout = 180  # a busy machine starts many servers at once
c.Spawner.http_timeout = 120
# every student's kernels share one run cache, filled ahead by the warm-up that
# `classroom.start` begins: a dashboard one student opened opens at once for all
c.Spawner.environment = {"ZVMSIM_RUN_CACHE": str(settings.run_cache)}

# ---- services: the idle culler; the test's admin token ----
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={settings.idle_timeout}",
            f"--cull-every={settings.cull_every}",
        ],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
if os.environ.get("ZVMSIM_CLASS_API_TOKEN"):
    c.JupyterHub.services.append(
        {"name": "class-admin", "api_token": os.environ["ZVMSIM_CLASS_API_TOKEN"]}
    )
    c.JupyterHub.load_roles.append(
        {"name": "class-admin", "scopes": ["admin:users", "admin:servers", "tokens",
                                           "access:servers", "admin-ui"],
         "services": ["class-admin"]}
    )  # fmt: skip
