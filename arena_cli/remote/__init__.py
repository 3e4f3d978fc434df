"""The author's client of a Catan Arena server (its REST API): log in, upload, follow
matches and A/B tests, download replays."""
