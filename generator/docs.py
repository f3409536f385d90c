"""Format docs (placeholder until the docs pages land)."""


def render(root, schemas, modules, vector_files):
    return {}
