"""`ragpipe serve`: the evaluation service (an ASGI app, see ``ragpipe.service.app``)."""

from ragpipe.service.app import TOKEN_ENV, ServiceSettings, binding_problem, create_app

__all__ = ["TOKEN_ENV", "ServiceSettings", "binding_problem", "create_app"]
