"""A task completes on a real worker through the real Redis broker and PostgreSQL."""
import pytest

pytestmark = pytest.mark.worker


def test_health_check_round_trip(app, celery_worker):
    from psan.celery.tasks import health_check
    with app.app_context():
        result = health_check.delay("nonce-123").get(timeout=30)
    assert result["nonce"] == "nonce-123"
    assert result["database"].startswith("psan_test_")


def test_system_page_reports_worker(admin_client, celery_worker):
    page = admin_client.get("/system").get_data(as_text=True)
    assert page.count("text-success") == 3, page
