"""Offline evaluation (`asi-agent eval`): task suites, runs on this machine or on Ray, spec §8 metrics."""
