"""URLs with personal paths get their own type (private at pre-annotation in the app)."""
from __future__ import annotations

import pytest

from psan.store.admin.rules import PRIVATE_BY_DEFAULT, default_ne_confidence
from psan.tool.detection.recognizers.contact import UrlRecognizer, is_personal_url
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category


@pytest.mark.parametrize("url", ["https://www.facebook.com/jan.novak", "https://example.com/~novak/cv.html",
                                 "https://web.example.org/people/jnovak", "https://medium.com/@jane",
                                 "http://forum.example.cz/profile.php?user=petr77", "https://github.com/jnovak"])
def test_personal_urls(url):
    assert is_personal_url(url)


@pytest.mark.parametrize("url", ["https://www.mff.cuni.cz/cs/fakulta", "https://x.com/search",
                                 "https://netflix.com/title/123", "https://www.justice.cz/web/msp/rejstriky"])
def test_impersonal_urls(url):
    assert not is_personal_url(url)


def test_recognizer_types_and_default_confidence():
    text = "See https://www.facebook.com/jan.novak and https://www.justice.cz/web/msp for details."
    kinds = {text[s.start:s.end]: s.type for s in UrlRecognizer().analyze(text)}
    assert kinds == {"https://www.facebook.com/jan.novak": "URL_PERSONAL", "https://www.justice.cz/web/msp": "URL"}
    assert category_of("URL_PERSONAL") is Category.CONTACT
    assert "URL_PERSONAL" in PRIVATE_BY_DEFAULT and "URL" not in PRIVATE_BY_DEFAULT
    assert default_ne_confidence("IBAN", -1.0) == -1.0 and default_ne_confidence("IBAN", -3.0) == -3.0
    assert default_ne_confidence("PERSON", -1.0) == 0.0
