"""The application: the use cases that change games and players, the queries that read them, and the house."""
