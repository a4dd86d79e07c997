"""Review by risk on the real database and HTTP API: one-sentence span reviews, the reading queue, the release
gate of the QA bound, and a risk model that learns from a project's hand marks where names hide."""
from __future__ import annotations

from tests.documents import add_document, plain_sentences, token_index
from tests.helpers import csrf_token, default_project, sql
from tests.web.helpers import annotator_client, api_decide, api_post, api_window

SPAN_SENTENCE = "Yesterday John Smith met the judge."
TEXT = plain_sentences(0, 30) + " " + SPAN_SENTENCE + " " + plain_sentences(30, 30)


def _by_risk(app, project_id: int, target: float = 0.005) -> None:
    sql(app, "UPDATE project SET review_mode = 'risk', qa_target = %s WHERE id = %s", (target, project_id))


def _read_all(client) -> int:
    """Take reading windows until none is left; how many."""
    windows = 0
    while True:
        status, body = api_post(client, "read", {})
        assert status == 200, body
        if body["window"] is None:
            return windows
        windows += 1
        assert windows < 200


def _review(app, pid: int) -> dict:
    from psan.runtime import db
    from psan.store.review import risk_qa
    with app.app_context(), db.transaction() as conn:
        return risk_qa.summary(conn, pid)


def _risk_project_with_span(app, window_size: int, text: str = TEXT):
    """A project reviewing by risk with one document and one span; an annotator's client and first window."""
    pid = default_project(app)
    _by_risk(app, pid)
    doc = add_document(app, text, [("John Smith", "PERSON")])
    client = annotator_client(app, "a@example.org", window_size=window_size)
    status, body = api_window(client)
    assert status == 200
    return pid, doc, client, body


def test_a_span_review_shows_the_span_sentence_only(clean_app):
    app = clean_app
    pid, doc, _, body = _risk_project_with_span(app, 300)
    shown = " ".join(t["text"] for t in body["tokens"])
    # the span's sentence, and only whole sentences that fit into the 20 tokens around it
    assert "Yesterday John Smith met the judge ." in shown
    assert len(body["tokens"]) <= 20
    # the same project reading everything shows the whole window around the span
    sql(app, "UPDATE project SET review_mode = 'full' WHERE id = %s", (pid,))
    other = annotator_client(app, "b@example.org", window_size=300)
    sql(app, "DELETE FROM annotation_window")
    status, body = api_window(other)
    assert status == 200 and len(body["tokens"]) > 200


def test_reading_queue_and_release_gate(clean_app):
    app = clean_app
    pid, doc, client, body = _risk_project_with_span(app, 100)
    first = token_index(app, doc, "John")
    assert api_decide(client, doc, first, first + 2, "PRIVATE")[0] == 200
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    # text nobody read and no sample: the release waits, and says why
    review = _review(app, pid)
    assert review["unread"] > 0 and review["bound"] is None and review["blocked"]
    refused = admin.get(f"/documents/project/{pid}/download/pseudonymize")
    assert refused.status_code == 409 and "QA sample" in refused.get_data(as_text=True)
    assert admin.get(f"/documents/{doc}/download/tag").status_code == 409
    assert admin.get(f"/documents/{doc}/download/input").status_code == 200  # the admin's own input is not a release
    # a sample of some unread sentences with a miss found: the bound stays above the target
    page = f"/documents/project/{pid}/release"
    response = admin.post(f"/documents/project/{pid}/review-sample", data={"csrf_token": csrf_token(admin, page),
                                                                           "size": "5"})
    assert response.status_code == 302
    sample_page = response.headers["Location"]
    html = admin.get(sample_page).get_data(as_text=True)
    fields = sorted(set(__import__("re").findall(r'name="(m-\d+-\d+)"', html)))
    assert len(fields) == 5
    form = {name: "0" for name in fields}
    form[fields[0]] = "1"
    assert admin.post(sample_page, data={"csrf_token": csrf_token(admin, sample_page), **form}).status_code == 302
    review = _review(app, pid)
    assert review["reviewed"] == 5 and review["found"] == 1 and review["bound"] > review["target"]
    assert review["expected"] == 5.0  # no model yet: every unread sentence is as risky as can be
    assert admin.get(f"/documents/project/{pid}/download/pseudonymize").status_code == 409
    bad = admin.post(sample_page, data={"csrf_token": csrf_token(admin, sample_page), fields[0]: "-3"})
    assert bad.status_code == 400
    # the project has too little evidence for a model: every unread sentence is routed to reading
    assert not review["model_ready"] and review["to_read"] == review["unread"]
    assert _read_all(client) >= 1
    review = _review(app, pid)
    assert review["unread"] == 0 and review["bound"] == 0.0 and not review["blocked"]
    assert admin.get(f"/documents/project/{pid}/download/pseudonymize").status_code == 200
    report = admin.get(f"/documents/project/{pid}/release.json").get_json()
    assert report["review"]["bound"] == 0.0 and report["review"]["mode"] == "risk"
    assert body["window"]["document_id"] == doc


def test_a_project_with_no_room_for_a_miss_says_so_and_what_to_do(clean_app):
    """Two masked mentions at 0.5 % leave room for no missed mention: the release page says so and what to do (a
    sample must hold nearly every unread sentence); a target with room for one shows the room and no such note."""
    app = clean_app
    pid = default_project(app)
    _by_risk(app, pid)
    text = plain_sentences(0, 30) + " Yesterday John Smith met Mary Jones. " + plain_sentences(30, 30)
    doc = add_document(app, text, [("John Smith", "PERSON"), ("Mary Jones", "PERSON")])
    client = annotator_client(app, "a@example.org", window_size=100)
    assert api_window(client)[0] == 200
    for name in ("John", "Mary"):
        first = token_index(app, doc, name)
        assert api_decide(client, doc, first, first + 2, "PRIVATE")[0] == 200
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    review = _review(app, pid)
    assert review["mentions"] == 2 and review["room"] == 0 and review["unread"] > 0
    assert review["suggested_sample"] >= 0.95 * review["unread"]
    html = admin.get(f"/documents/project/{pid}/release").get_data(as_text=True)
    assert 'id="release-no-room"' in html and "leaves no room for a single missed mention" in html
    assert 'class="review-room">0<' in html
    report = admin.get(f"/documents/project/{pid}/release.json").get_json()
    assert report["review"]["room"] == 0
    _by_risk(app, pid, target=0.4)  # 2 mentions: room for one (1 / 3 <= 40 %)
    html = admin.get(f"/documents/project/{pid}/release").get_data(as_text=True)
    assert 'id="release-no-room"' not in html and 'class="review-room">1<' in html


def _witness(i: int) -> str:
    return f"The witness Novak{i} testified about it."


def test_the_risk_model_learns_where_names_hide(clean_app):
    """Hand marks in read text teach the model; unread sentences like them are routed to reading, plain ones
    are left to the QA sample."""
    app = clean_app
    pid = default_project(app)
    # a small project (26 mentions): a target that leaves room for one missed mention, so a sample can certify
    # the plain sentences without reading them all (at 2 %, no room for any, it must read 97 % of them)
    _by_risk(app, pid, target=0.05)
    seen_text = " ".join(_witness(i) if i % 10 == 0 else f"This is plain sentence number {i}." for i in range(260))
    seen = add_document(app, seen_text, name="seen.txt")
    unseen_text = " ".join(_witness(i) if i % 10 == 0 else f"This is plain sentence number {i}."
                           for i in range(1000, 1100))
    unseen = add_document(app, unseen_text, name="unseen.txt")
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    status, body = api_post(admin, "open", {"document_id": seen, "start": 0, "size": 20000})
    assert status == 200 and len(body["tokens"]) > 1800  # the whole document is read
    for i in range(0, 260, 10):  # the name of each witness sentence, marked by hand
        first = token_index(app, seen, f"Novak{i}")
        assert api_decide(admin, seen, first, first + 1, "PRIVATE")[0] == 200
    from psan.runtime import db
    from psan.store.review import risk_review
    with app.app_context(), db.transaction() as conn:
        plan = risk_review.reading_plan(conn, pid)
    assert plan.model is not None and plan.model.ready
    routed = {(s.document_id, s.first_token) for s in plan.to_read}
    witness = [s for s in plan.unread if s.view.words[:2] == ["The", "witness"]]
    plain = [s for s in plan.unread if s.view.words[:2] == ["This", "is"]]
    assert len(witness) == 10 and len(plain) == 90
    assert all((s.document_id, s.first_token) in routed for s in witness)
    risk = {(s.document_id, s.first_token): r for s, r in zip(plan.unread, plan.risks, strict=True)}
    assert max(risk[s.document_id, s.first_token] for s in plain) * 5 < min(
        risk[s.document_id, s.first_token] for s in witness)
    assert sum((s.document_id, s.first_token) in routed for s in plain) < len(plain) // 2
    assert all(s.document_id == unseen for s in plan.unread)


def test_after_the_last_span_review_w_gives_text_to_read_and_says_why(clean_app):
    app = clean_app
    pid, doc, client, _ = _risk_project_with_span(app, 60)
    first = token_index(app, doc, "John")
    assert api_decide(client, doc, first, first + 2, "PRIVATE")[0] == 200
    status, body = api_post(client, "next", {})
    assert status == 200 and body["window"] is not None
    assert body["routing"]["kind"] == "reading" and body["routing"]["reason"] == "untrained"
    assert body["routing"]["why"] and len(body["tokens"]) <= 60 + 50
    # a project reading everything keeps its old end: no reading windows handed out by ``w``
    sql(app, "UPDATE project SET review_mode = 'full' WHERE id = %s", (pid,))
    status, body = api_post(client, "next", {})
    assert status == 200 and body["window"] is None


def test_a_span_review_of_a_long_sentence_shows_the_twenty_tokens_around_the_span(clean_app):
    app = clean_app
    words = " ".join(f"word{i}" for i in range(40))
    _, doc, _, body = _risk_project_with_span(app, 300, f"{words} and then John Smith arrived {words} at last.")
    john = token_index(app, doc, "John")
    assert body["window"]["first_token"] <= john < john + 2 <= body["window"]["end_token"]
    assert len(body["tokens"]) <= 20


def test_a_qa_sample_shows_only_what_nobody_saw_of_a_sentence(clean_app):
    """A span review showed the middle of a long sentence: the sample's reviewer reads its two ends, each on the
    review page and in an admin window opened exactly there (not again from the sentence's start)."""
    app = clean_app
    words = " ".join(f"word{i}" for i in range(40))
    pid, doc, _, body = _risk_project_with_span(app, 300, f"{words} and then John Smith arrived {words} at last.")
    seen = (body["window"]["first_token"], body["window"]["end_token"])
    from psan.runtime import db
    from psan.store.review import risk_qa
    with app.app_context(), db.transaction() as conn:
        sample_id, drawn = risk_qa.draw(conn, pid, None, size=10)
        (sentence,) = risk_qa.sample_sentences(conn, sample_id)
    assert drawn == 1 and sentence["first_token"] == 0
    parts = [(u["first_token"], u["end_token"]) for u in sentence["unseen"]]
    assert parts == [(0, seen[0]), (seen[1], sentence["end_token"])]
    assert sentence["unseen"][0]["text"].startswith("word0 word1") and "John" not in sentence["unseen"][0]["text"]
    assert sentence["unseen"][1]["text"].endswith("at last.") and "Smith" not in sentence["unseen"][1]["text"]
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    html = admin.get(f"/documents/project/{pid}/review-sample/{sample_id}").get_data(as_text=True)
    assert html.count('class="review-unseen') == 2 and f"start={seen[1]}" in html and "exact=1" in html
    status, window = api_post(admin, "open", {"document_id": doc, "start": seen[1], "size": parts[1][1] - seen[1],
                                              "exact": True})
    assert status == 200 and (window["window"]["first_token"], window["window"]["end_token"]) == parts[1]
    status, window = api_post(admin, "open", {"document_id": doc, "start": seen[1], "size": sentence["end_token"]})
    assert status == 200 and window["window"]["first_token"] == 0  # without it: from the sentence's start
    assert api_post(admin, "open", {"document_id": doc, "start": 0, "exact": "yes"})[0] == 400


def test_downloads_prepared_in_the_background_wait_for_the_bound_too(clean_app):
    app = clean_app
    pid, doc, _, _ = _risk_project_with_span(app, 100)
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    page = f"/documents/?project={pid}"
    for path in (f"/documents/{doc}/prepare/pseudonymize", f"/documents/project/{pid}/prepare/tag"):
        assert admin.post(path, data={"csrf_token": csrf_token(admin, page)}).status_code == 409
    assert admin.post(f"/documents/{doc}/prepare/input", data={"csrf_token": csrf_token(admin, page)}
                      ).status_code == 302  # the admin's own input is no release


def test_a_sentence_longer_than_the_window_is_read_in_parts(clean_app):
    app = clean_app
    words = " ".join(f"word{i}" for i in range(150))
    pid, doc, client, _ = _risk_project_with_span(app, 50, f"John Smith arrived. Then {words} end.")
    first = token_index(app, doc, "John")
    assert api_decide(client, doc, first, first + 2, "PRIVATE")[0] == 200
    shown: list[tuple[int, int]] = []
    for _ in range(10):
        status, body = api_post(client, "read", {})
        assert status == 200
        if body["window"] is None:
            break
        assert len(body["tokens"]) <= 50
        shown.append((body["window"]["first_token"], body["window"]["end_token"]))
    assert len(shown) >= 3 and len(set(shown)) == len(shown)  # each part once, resumed where reading stopped
    assert _review(app, pid)["unread"] == 0


def test_one_span_review_shows_every_waiting_span_of_its_sentence_once(clean_app):
    """Two spans 30 words apart in one long sentence: one span review holds both, each with its 20 tokens, and the
    reading that follows does not show them again."""
    app = clean_app
    pid = default_project(app)
    _by_risk(app, pid)
    words = " ".join(f"word{i}" for i in range(30))
    text = f"{words} and John Smith met {words} with Jane Brown at the end of {words} here."
    doc = add_document(app, text, [("John Smith", "PERSON"), ("Jane Brown", "PERSON")])
    client = annotator_client(app, "a@example.org", window_size=300)
    status, body = api_window(client)
    assert status == 200
    first, end = body["window"]["first_token"], body["window"]["end_token"]
    john, jane = token_index(app, doc, "John"), token_index(app, doc, "Jane")
    assert first <= john and jane + 2 <= end
    assert end - first < len(text.split())  # not the whole sentence: the words far from both spans are left
    assert {(a["first_token"], a["end_token"]) for a in body["annotations"]} >= {(john, john + 2), (jane, jane + 2)}
    for at in (john, jane):
        assert api_decide(client, doc, at, at + 2, "PRIVATE")[0] == 200
    shown = set(range(first, end))
    for _ in range(10):
        status, body = api_post(client, "read", {})
        assert status == 200
        if body["window"] is None:
            break
        read = set(range(body["window"]["first_token"], body["window"]["end_token"]))
        assert not read & shown  # the span review's words are not shown again
        shown |= read
    assert _review(app, pid)["unread"] == 0


def test_a_span_review_never_cuts_through_a_span_at_its_edge(clean_app):
    """The 20 tokens around "John Smith" begin inside "Istanbul Administrative Court": the window shows it whole."""
    app = clean_app
    words = " ".join(f"word{i}" for i in range(30))
    text = f"{words} Istanbul Administrative Court w1 w2 w3 w4 w5 w6 w7 John Smith {words} end."
    pid = default_project(app)
    _by_risk(app, pid)
    doc = add_document(app, text, [("John Smith", "PERSON"), ("Istanbul Administrative Court", "ORG")])
    istanbul, john = token_index(app, doc, "Istanbul"), token_index(app, doc, "John")
    # the court is decided: John Smith is the only waiting span, and its 20 tokens start after "Istanbul"
    sql(app, "UPDATE annotation SET token_decision = 'PUBLIC' WHERE document_id = %s AND first_token = %s",
        (doc, istanbul))
    assert john + 1 - 10 > istanbul
    client = annotator_client(app, "a@example.org", window_size=300)
    status, body = api_window(client)
    assert status == 200
    assert body["window"]["first_token"] <= istanbul and john + 2 <= body["window"]["end_token"]


def test_a_span_already_private_gets_no_span_review(clean_app):
    """Masking needs no person: with the only waiting span leased to another annotator, a private span without a
    label is not handed out as a span review (reading everything would hand it out for its label)."""
    app = clean_app
    pid = default_project(app)
    _by_risk(app, pid)
    text = "Yesterday John Smith met the judge. " + plain_sentences(0, 10) + " Then Jane Brown left."
    doc = add_document(app, text, [("John Smith", "PERSON"), ("Jane Brown", "PERSON")])
    jane = token_index(app, doc, "Jane")
    sql(app, "UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = %s AND first_token = %s",
        (doc, jane))
    first = annotator_client(app, "a@example.org", window_size=300)
    status, body = api_window(first)
    assert status == 200 and body["window"]["first_token"] < jane  # John Smith's span review
    second = annotator_client(app, "b@example.org", window_size=300)
    status, body = api_window(second)
    assert status == 200
    assert body["window"] is None or body.get("routing", {}).get("kind") == "reading"


def _applicant(i: int) -> str:
    return f"Applicant {i} is a Turkish national."


def test_a_public_rule_people_contradicted_sends_its_unread_applications_to_reading(clean_app):
    """A person's word rule made "Turkish" public; in a judgment people read, a person decided one "Turkish"
    private.  There, its other mentions wait for a person (the lookup of that decision); in the judgment nobody
    read, the rule's applications are as doubtful as its record (contradicted once in the seen ones) and are read,
    saying why; the plain unread sentences are not, and nothing changes while nobody contradicts the rule."""
    app = clean_app
    pid = default_project(app)
    _by_risk(app, pid, target=0.05)  # a sample may certify the plain sentences (see the test above)

    def sentence(i: int) -> str:
        return _witness(i) if i % 10 == 0 else _applicant(i) if i % 10 == 5 else f"This is plain sentence number {i}."
    doc = add_document(app, " ".join(sentence(i) for i in range(260)), [("Turkish", "NORP")], name="read.txt")
    add_document(app, " ".join(sentence(i) for i in range(1000, 1100)), [("Turkish", "NORP")], name="unread.txt")
    seen_end = sql(app, "SELECT count(*) AS n FROM token WHERE document_id = %s", (doc,))[0]["n"]
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    status, body = api_post(admin, "open", {"document_id": doc, "start": 0, "size": seen_end})
    assert status == 200 and body["window"]["end_token"] == seen_end
    for i in range(0, 260, 10):
        first = token_index(app, doc, f"Novak{i}")
        assert api_decide(admin, doc, first, first + 1, "PRIVATE")[0] == 200
    turkish = token_index(app, doc, "Turkish")
    assert api_decide(admin, doc, turkish, turkish + 1, "PUBLIC", "word_type")[0] == 200
    from psan.runtime import db
    from psan.store.corpus.rule_changes import reannotate_changed
    from psan.store.review import risk_review

    def plan():
        with app.app_context():
            reannotate_changed(db.transaction, pid)  # the project run applies the decisions' rules everywhere
            with db.transaction() as conn:
                return risk_review.reading_plan(conn, pid)
    applicants = [s for s in plan().unread if s.view.words[:1] == ["Applicant"]]
    assert len(applicants) == 10 and all(s.rule_risk == 0 for s in applicants)  # nobody contradicted the rule yet
    contradicted = token_index(app, doc, "Turkish", 3)
    assert api_decide(admin, doc, contradicted, contradicted + 1, "PRIVATE")[0] == 200
    other = token_index(app, doc, "Turkish", 4)
    assert sql(app, "SELECT rule_level FROM annotation WHERE document_id = %s AND first_token = %s "
                    "AND end_token = %s", (doc, other, other + 1))[0]["rule_level"] == 0.0
    after = plan()
    applicants = [s for s in after.unread if s.view.words[:1] == ["Applicant"]]
    # 26 applications seen (one contradicted): each unread one is wrong with probability 1/26
    assert len(applicants) == 10 and all(abs(s.rule_risk - 1 / 26) < 1e-9 for s in applicants)
    assert all(s.doubted == ("Turkish",) for s in applicants)
    routed = {(s.document_id, s.first_token) for s in after.to_read}
    assert all((s.document_id, s.first_token) in routed for s in applicants)
    plain = [s for s in after.unread if s.view.words[:2] == ["This", "is"]]
    assert sum((s.document_id, s.first_token) in routed for s in plain) < len(plain) // 2
    reader = annotator_client(app, "reader@example.org")
    reasons = []
    for _ in range(40):
        status, body = api_post(reader, "read", {})
        assert status == 200
        if body["window"] is None:
            break
        reasons.extend(body["routing"]["why"])
    assert any("Turkish" in why and "rule" in why for why in reasons)


def test_a_hand_mark_is_a_private_range_no_recognizer_found_and_the_model_sees_its_word_uncovered(clean_app):
    """A hit (what the risk model learns) is a sentence with a private decision on a range no recognized span has:
    deciding the recognized name private is no hit; marking a word no recognizer found is one, and so is a name
    made whole around a recognized part of it.  The read sentence is seen as the person found it: the marked
    word uncovered, as a name nobody found is in an unread sentence."""
    app = clean_app
    pid, doc, client, _ = _risk_project_with_span(app, 300)
    span = token_index(app, doc, "John")
    assert api_decide(client, doc, span, span + 2, "PRIVATE")[0] == 200
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    assert api_post(admin, "open", {"document_id": doc, "start": 0, "size": 20000})[0] == 200
    missed = token_index(app, doc, "judge")
    assert api_decide(admin, doc, missed, missed + 1, "PRIVATE")[0] == 200
    other = token_index(app, doc, "Yesterday") - 3  # a word of the plain sentence before
    assert api_decide(admin, doc, other, other + 1, "PUBLIC")[0] == 200
    from psan.runtime import db
    from psan.store.review import risk_review

    def plan() -> list:
        with app.app_context(), db.transaction() as conn:
            return risk_review.project_sentences(conn, pid)[0]

    sentences = plan()
    hits = {s.first_token for s in sentences if s.hit}
    span_sentence = next(s for s in sentences if s.first_token <= span < s.end_token)
    assert span_sentence.first_token in hits  # "judge" was marked by hand in it
    assert hits == {span_sentence.first_token}
    assert span_sentence.read
    covered = dict(zip(span_sentence.view.words, span_sentence.view.covered, strict=True))
    assert not covered["judge"] and covered["John"] and covered["Smith"]
    assert span_sentence.view.private_spans == 1  # the recognized name, not the hand mark
    sql(app, "DELETE FROM annotation WHERE document_id = %s AND first_token = %s", (doc, missed))
    assert not any(s.hit for s in plan())  # the recognized name decided private is no hand mark
    # "Yesterday John Smith": the name with a word before it, around the recognized span, is one
    assert api_decide(admin, doc, span - 1, span + 2, "PRIVATE")[0] == 200
    assert {s.first_token for s in plan() if s.hit} == {span_sentence.first_token}


def _halvorsen_project(app):
    """A project by risk whose document names "Halvorsen" (no recognizer finds it) in the span sentence and in
    the last; an annotator who saw the span sentence and marked the name there by hand (``scope``)."""
    pid = default_project(app)
    _by_risk(app, pid)
    text = TEXT.replace("the judge.", "the judge Halvorsen.") + " Halvorsen left."
    doc = add_document(app, text, [("John Smith", "PERSON")])
    client = annotator_client(app, "a@example.org", window_size=20)
    status, body = api_window(client)
    assert status == 200 and "Halvorsen" in [t["text"] for t in body["tokens"]]
    return pid, doc, client


def _hit_sentences(app, pid: int) -> list:
    from psan.runtime import db
    from psan.store.review import risk_review
    with app.app_context(), db.transaction() as conn:
        sentences = risk_review.project_sentences(conn, pid)[0]
    assert all(s.read for s in sentences)
    return [s for s in sentences if s.hit]


def test_a_name_a_rule_had_already_shown_is_no_hand_mark_where_a_person_decides_it(clean_app):
    """A name marked by hand leaves a lookup rule that shows its other occurrences as suspicious spans; deciding
    one of those private is a decision on what a rule showed, not a name a person had to find: no hit there."""
    app = clean_app
    pid, doc, client = _halvorsen_project(app)
    marked = token_index(app, doc, "Halvorsen")
    assert api_decide(client, doc, marked, marked + 1, "PRIVATE")[0] == 200
    shown = [r["first_token"] for r in sql(app, "SELECT first_token FROM annotation WHERE document_id = %s "
                                                "AND first_token > %s AND token_decision IS NULL", (doc, marked))]
    assert len(shown) == 1  # the lookup rule's span on the last "Halvorsen", suspicious
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    assert api_post(admin, "open", {"document_id": doc, "start": 0, "size": 20000})[0] == 200
    assert api_decide(admin, doc, shown[0], shown[0] + 1, "PRIVATE")[0] == 200
    assert [s.first_token <= marked < s.end_token for s in _hit_sentences(app, pid)] == [True]


def test_a_private_decision_against_an_older_public_rule_is_a_hand_mark(clean_app):
    """Decided public by word type, "Halvorsen" is public everywhere by that rule; where a person then finds it
    private, nobody reading would have let it through: the sentence hid a mention (a QA reviewer counts such gold
    under a public span as a miss), so it is a hit."""
    app = clean_app
    pid, doc, client = _halvorsen_project(app)
    marked = token_index(app, doc, "Halvorsen")
    assert api_decide(client, doc, marked, marked + 1, "PUBLIC", scope="word_type")[0] == 200
    ruled = [r["first_token"] for r in sql(app, "SELECT first_token FROM annotation WHERE document_id = %s "
                                                "AND first_token > %s AND token_decision IS NULL", (doc, marked))]
    assert len(ruled) == 1  # the word rule's span on the last "Halvorsen", public by the rule
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    assert api_post(admin, "open", {"document_id": doc, "start": 0, "size": 20000})[0] == 200
    assert api_decide(admin, doc, ruled[0], ruled[0] + 1, "PRIVATE")[0] == 200
    assert [s.first_token <= ruled[0] < s.end_token for s in _hit_sentences(app, pid)] == [True]


def test_a_mention_decided_with_its_entity_before_any_window_showed_it_is_no_hand_mark(clean_app):
    """Marking a name by hand with its entity (``x``) decides its other occurrences in the document; one that no
    window had shown was found by that decision, not by a person reading it, so its sentence is no hit, even once
    read (the risk model would learn that sentences hide names whose words it then finds covered everywhere)."""
    app = clean_app
    pid, doc, client = _halvorsen_project(app)
    marked = token_index(app, doc, "Halvorsen")
    assert api_decide(client, doc, marked, marked + 1, "PRIVATE", scope="entity")[0] == 200
    decided = [r["first_token"] for r in sql(app, "SELECT first_token FROM annotation WHERE document_id = %s "
                                                  "AND token_decision = 'PRIVATE' ORDER BY first_token", (doc,))]
    assert decided[0] == marked and len(decided) == 2  # and "Halvorsen" of the last sentence, never shown
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    assert api_post(admin, "open", {"document_id": doc, "start": 0, "size": 20000})[0] == 200  # now all is read
    assert [s.first_token <= marked < s.end_token for s in _hit_sentences(app, pid)] == [True]


def test_the_model_sees_the_words_only_a_rule_made_public_and_a_name_marked_inside_them(clean_app):
    """A span a person decided public was looked at; its copies a rule made public were not, and a name can hide
    in them ("Turkish" in "a Turkish national"): the plan shows their words as public to the model, unread or
    read, and a name a person marked by hand inside one stays public in the read sentence, as the person found
    it (the model learns that such released words hid a name)."""
    app = clean_app
    pid = default_project(app)
    _by_risk(app, pid)
    text = "Applicant one is a Turkish national. " + plain_sentences(0, 5) + " Applicant two is a Turkish national."
    doc = add_document(app, text, [("Turkish national", "NORP")])
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    first = token_index(app, doc, "Turkish")
    second = token_index(app, doc, "Turkish", 1)
    assert api_post(admin, "open", {"document_id": doc, "start": 0, "size": first + 3})[0] == 200
    assert api_decide(admin, doc, first, first + 2, "PUBLIC", "word_type")[0] == 200
    from psan.runtime import db
    from psan.store.review import risk_review

    def sentence_of(token: int):
        with app.app_context(), db.transaction() as conn:
            sentences = risk_review.project_sentences(conn, pid)[0]
        return next(s for s in sentences if s.first_token <= token < s.end_token)

    def public_words(s) -> list[str]:
        return [w for w, p in zip(s.view.words, s.view.public or [0] * len(s.view.words), strict=True) if p]

    decided, ruled = sentence_of(first), sentence_of(second)
    assert decided.read and public_words(decided) == []  # a person decided that span
    assert not ruled.read and public_words(ruled) == ["Turkish", "national"]
    assert api_post(admin, "open", {"document_id": doc, "start": 0, "size": 20000})[0] == 200
    assert api_decide(admin, doc, second, second + 1, "PRIVATE")[0] == 200  # the name inside, by hand
    ruled = sentence_of(second)
    assert ruled.read and ruled.hit and public_words(ruled) == ["Turkish", "national"]


def test_a_seeded_qa_sample_draws_the_same_sentences_in_the_same_state(clean_app, monkeypatch):
    """``QA_SAMPLE_SEED`` (evaluation runs): the app's own draw, from the release page, repeats in the same state;
    the unread-sentence sample and the public-token sample alike."""
    app = clean_app
    pid, _, _, _ = _risk_project_with_span(app, 100)
    monkeypatch.setitem(app.config, "QA_SAMPLE_SEED", "order-1")
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    page = f"/documents/project/{pid}/release"

    def drawn(path: str, table: str, rows: str) -> list[tuple]:
        response = admin.post(f"/documents/project/{pid}/{path}", data={"csrf_token": csrf_token(admin, page),
                                                                         "size": "5"})
        assert response.status_code == 302
        sample = sql(app, f"SELECT max(id) AS id FROM {table}")[0]["id"]  # noqa: S608 - the test's own names
        chosen = sql(app, f"SELECT {rows} FROM {table}_{'sentence' if table == 'risk_sample' else 'token'} "  # noqa: S608
                          "WHERE sample_id = %s ORDER BY 1, 2", (sample,))
        sql(app, f"DELETE FROM {table} WHERE id = %s", (sample,))  # noqa: S608 - the same state for the next draw
        return [tuple(r.values()) for r in chosen]

    first = drawn("review-sample", "risk_sample", "document_id, first_token")
    assert len(first) == 5 and drawn("review-sample", "risk_sample", "document_id, first_token") == first
    tokens = drawn("qa", "qa_sample", "document_id, token_id")
    assert len(tokens) == 5 and drawn("qa", "qa_sample", "document_id, token_id") == tokens
