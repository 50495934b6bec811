"""The tournament service: formats, registration, rounds, results and standings, over
the match service. Knows no transport: the Discord side posts what it returns."""
