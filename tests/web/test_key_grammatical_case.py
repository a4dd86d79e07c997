"""The project key records the grammatical case each Czech surrogate was rendered in, so the original text
can be restored.
"""
from __future__ import annotations

import io
import json

from psan.runtime import db
from tests.documents import add_document
from tests.helpers import csrf_token, new_project, sql


# --- morphology features in the key -------------------------------------------------------------------------
def test_project_key_records_the_case_each_czech_surrogate_was_rendered_in_and_restores_the_text(admin_client,
                                                                                                 clean_app):
    """A Czech person in the nominative, the dative and the instrumental: the key (JSON) gives each mention the
    features its surrogate was rendered with (Case Nom/Dat/Ins, Gender Fem), the surrogates differ as the cases
    do, and the web de-pseudonymization with that key gives back the original text."""
    app = clean_app
    pid = new_project(app, "Morfologie")
    text = "Přišla Jana Nováková. Poslal jsem dopis Janě Novákové. Mluvil jsem s Janou Novákovou."
    doc = add_document(app, text, [("Jana Nováková", "P"), ("Janě Novákové", "P"), ("Janou Novákovou", "P")],
                       project_id=pid, name="cs.txt", language="cs")
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    with app.app_context(), db.transaction() as conn:
        from psan.store.corpus.reannotate import reannotate_document_now
        reannotate_document_now(conn, doc)
    output = admin_client.get(f"/documents/{doc}/download/pseudonymize")
    assert output.status_code == 200
    out_text = output.get_data(as_text=True)
    assert "Nováko" not in out_text and "Jan" not in out_text
    key_text = admin_client.get(f"/documents/project/{pid}/key.json?reason=audit+check").get_data(as_text=True)
    entries = sorted(json.loads(key_text)["entries"], key=lambda e: e["original_start"])
    assert [e["original_text"] for e in entries] == ["Jana Nováková", "Janě Novákové", "Janou Novákovou"]
    assert [e["features"]["Case"] for e in entries] == ["Nom", "Dat", "Ins"]
    assert {e["features"]["Gender"] for e in entries} == {"Fem"}
    assert len({e["replacement"] for e in entries}) == 3  # one person, three case forms
    assert len({e["entity"] for e in entries}) == 1
    token = csrf_token(admin_client, "/documents/upload")
    restored = admin_client.post("/documents/depseudonymize", content_type="multipart/form-data", data={
        "csrf_token": token, "output": (io.BytesIO(out_text.encode()), "cs.pseudonymize.txt"),
        "key": (io.BytesIO(key_text.encode()), "key.json"), "reason": "audit check"})
    assert restored.status_code == 200 and restored.get_data(as_text=True) == text
