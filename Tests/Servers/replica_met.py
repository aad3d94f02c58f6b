"""The met part of the replica (see replica.py). To be filled with the service's paths and sample data."""


def handles(path):
    return False


def handle(handler, path, query):
    handler.send_json(404, {"message": "not implemented"})
