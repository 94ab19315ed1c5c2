"""The HTTP API (flask-smorest resources, problem+json, the OpenAPI document), its live feeds and the web client."""
