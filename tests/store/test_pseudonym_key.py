"""The project's stored identities (psan.store.publish.pseudonym_key)."""
from __future__ import annotations

from psan.runtime import db
from psan.store.publish import pseudonym_key
from tests.helpers import default_project


def test_pseudonym_key_keeps_identities(clean_app):
    app = clean_app
    pid = default_project(app)
    with app.app_context(), db.transaction() as conn:
        assert pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person", "names": {"last:a": "B"}}}) == 1
        # stored values win, new parts are added
        pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person", "names": {"last:a": "X",
                                                                                          "first:c": "D"}}})
        assert pseudonym_key.load_identities(conn, pid) == {
            "person-1": {"kind": "person", "names": {"last:a": "B", "first:c": "D"}}}
        assert pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person"}}) == 0
        pseudonym_key.clear(conn, pid)
        assert pseudonym_key.load_identities(conn, pid) == {}


#: lines of cnec-dtest.jsonl (0-based) on which a render drawing its identities and a render from the key it stored
#: differed before the second pass (found by removing documents while the difference stayed: the surrogate pool of
#: places runs short, so which entity owns a candidate depends on which identities are known when it is served)
KEY_FIXPOINT_LINES = (453, 459, 557, 566, 568, 572, 590, 611, 615, 631, 634, 640, 641, 645, 647, 651, 652, 658, 659,
                      660, 668, 670, 673, 682, 686, 689, 691, 696, 698, 702, 705, 706, 712, 715, 724, 725, 731, 734,
                      738, 741, 753, 754, 756, 759, 760, 762, 766, 768, 786, 795, 796, 798, 800, 802, 805, 808, 814,
                      826, 831, 840, 845, 846, 860, 865, 877, 880, 882, 884, 888)


def test_the_first_render_is_what_its_stored_key_renders_again(clean_app, shared_dir):
    """The ZIP downloaded first stores the key; the key downloaded next renders the project again from it: both
    must give the same text (cnec-dtest whole: 57 of 900 documents' key did not fit the ZIP before)."""
    import json

    from psan.store.publish.output import pseudonymize_project
    from psan.tool.detection.merge import align
    from psan.tool.text.tokens import tokenize
    from tests.documents import add_document
    from tests.helpers import new_project, sql
    corpus = shared_dir / "data" / "cnec-dtest.jsonl"
    if not corpus.is_file():
        import pytest
        pytest.skip(f"{corpus} not found")
    wanted = set(KEY_FIXPOINT_LINES)
    docs = [json.loads(line) for i, line in enumerate(corpus.open(encoding="utf-8")) if i in wanted]
    app = clean_app
    project_id = new_project(app, "key fixpoint")  # the seed below is the one the lines were found with
    sql(app, "UPDATE project SET language = 'cs', seed = '7' WHERE id = %s", (project_id,))
    ids = []
    for d in docs:
        tokens, _ = tokenize(d["text"], "cs")
        spans, last = [], -1
        for s in sorted(d["spans"], key=lambda s: (s["start"], -s["end"])):  # the outermost of nested spans
            rng = align(tokens, s["start"], s["end"])
            if rng is not None and s["start"] >= last and s["label"] not in ("s", "f", "?", "segm", "cap", "lower",
                                                                            "upper"):
                spans.append((*rng, s["label"]))
                last = s["end"]
        ids.append(add_document(app, d["text"], spans=spans, project_id=project_id, name=f"{d['id']}.txt",
                                language="cs"))
    sql(app, "UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = ANY(%s)", (ids,))
    sql(app, "UPDATE document SET status = 'DONE' WHERE id = ANY(%s)", (ids,))
    with app.app_context(), db.transaction() as conn:
        first = [(d.text, d.entries) for d in pseudonymize_project(conn, project_id)]
    with app.app_context(), db.transaction() as conn:
        again = [(d.text, d.entries) for d in pseudonymize_project(conn, project_id)]
    assert len(first) == len(docs)
    assert [t for t, _ in first] == [t for t, _ in again]
    assert first == again
