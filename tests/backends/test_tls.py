"""Certificate checking: the system's certificates for TLS URLs, a context trusting nothing for plain HTTP."""

from __future__ import annotations

import ssl

import pytest

from asi_agent.backends.tls import verify_for


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/v1", "HTTP://localhost:11434"])
def test_a_plain_http_url_gets_checking_on_with_no_certificate_trusted(url: str):
    context = verify_for(url)

    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0


@pytest.mark.parametrize("url", ["https://api.openai.com/v1", "https://10.0.0.5:8443", "localhost:11434"])
def test_any_other_url_gets_the_default_check(url: str):
    assert verify_for(url) is True
