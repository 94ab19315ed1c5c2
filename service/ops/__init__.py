"""Operations: the command-line tool, the local Redis and Redis Cluster, the supervisor, gunicorn."""
