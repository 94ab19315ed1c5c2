"""The OpenAPI document: what flask-smorest reads off the routes, and what it cannot."""
