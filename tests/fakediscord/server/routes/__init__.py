"""REST API v10 routes, one module per concern; each contributes its route table."""
