"""Request and response schemas of the JSON API (marshmallow).

Why one set of schemas: flask-smorest validates every request with them and apispec writes the OpenAPI
document from the same classes, so the description cannot drift from what the code accepts.  Unknown fields
are refused (marshmallow's default), so a misspelt setting is an error, not silently ignored.
"""
from __future__ import annotations

from flask_smorest.fields import Upload
from marshmallow import Schema, fields, validate

from psan.store.admin.projects import LANGUAGES
from psan.store.publish.output import OUTPUT_MODES
from psan.store.publish.qa import MAX_SAMPLE
from psan.web.ids import MAX_ID

_ID = validate.Range(min=1, max=MAX_ID)
_TOKEN = validate.Range(min=0, max=2**31 - 1)
REVIEW_MODES = ("full", "risk")


class ErrorSchema(Schema):
    """Every error answer: a stable code for scripts and a message for people (validation errors in detail)."""

    code = fields.String(required=True, metadata={"description": "stable error code, e.g. not_found, "
                                                                  "invalid_input, scope_insufficient"})
    message = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "invalid fields and why (invalid_input only)"})


class TokenInfoSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    scope = fields.String(required=True, validate=validate.OneOf(("read", "annotate", "admin")))
    all_projects = fields.Boolean(required=True)
    project_ids = fields.List(fields.Integer(), required=True)
    account = fields.String(required=True, metadata={"description": "the owner's e-mail"})


class ProjectSettingsSchema(Schema):
    """The settings of the project page (all optional when changing a project: unchanged ones are kept)."""

    name = fields.String(validate=validate.Length(min=1, max=200))
    language = fields.String(validate=validate.OneOf(sorted(LANGUAGES)))
    pipeline = fields.Dict(allow_none=True, metadata={"description": "pipeline configuration (JSON), {} = defaults"})
    public_threshold = fields.Float(validate=validate.Range(min=-1000, max=1000))
    private_threshold = fields.Float(validate=validate.Range(min=-1000, max=1000))
    ask_labels = fields.Boolean()
    sensitive_types = fields.List(fields.String(validate=validate.Length(max=60)),
                                  validate=validate.Length(max=100))
    annotators_choose_document = fields.Boolean()
    lookups_everywhere = fields.Boolean()
    tracked_changes = fields.String(validate=validate.OneOf(("accept", "reject")))
    double_share = fields.Float(validate=validate.Range(min=0, max=1))
    review_mode = fields.String(validate=validate.OneOf(REVIEW_MODES))
    qa_target = fields.Float(validate=validate.Range(min=0.0001, max=0.2),
                             metadata={"description": "largest share of missed mentions (0.0001–0.2)"})
    members = fields.List(fields.Integer(validate=_ID), validate=validate.Length(max=10000),
                          metadata={"description": "account ids of the project's annotators"})


class ProjectCreateSchema(ProjectSettingsSchema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    language = fields.String(required=True, validate=validate.OneOf(sorted(LANGUAGES)))


class ProjectSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    language = fields.String(required=True)
    is_default = fields.Boolean(required=True)
    documents = fields.Integer()
    pipeline = fields.Dict(allow_none=True)
    public_threshold = fields.Float()
    private_threshold = fields.Float()
    ask_labels = fields.Boolean()
    sensitive_types = fields.List(fields.String())
    annotators_choose_document = fields.Boolean()
    lookups_everywhere = fields.Boolean()
    tracked_changes = fields.String()
    double_share = fields.Float()
    review_mode = fields.String()
    qa_target = fields.Float()
    undecided_output = fields.String(allow_none=True)
    members = fields.List(fields.Integer())


class ProjectListSchema(Schema):
    projects = fields.List(fields.Nested(ProjectSchema), required=True)


class UploadSchema(Schema):
    """A multipart upload: the files and how to read them."""

    files = fields.List(Upload(), required=True, validate=validate.Length(min=1),
                        metadata={"description": "text, office, PDF or ZIP files (the field repeated for many)"})
    language = fields.String(validate=validate.OneOf(sorted(LANGUAGES)),
                             metadata={"description": "every document's language (default: detected)"})
    confirm_conversion = fields.Boolean(load_default=False,
                                        metadata={"description": "accept files that are mostly UTF-8"})


class DocumentSchema(Schema):
    id = fields.Integer(required=True)
    project_id = fields.Integer()
    name = fields.String(required=True)
    language = fields.String(allow_none=True)
    status = fields.String(required=True, metadata={"description": "NEW, PROCESSING, RECOGNIZED, PRE_ANNOTATED, "
                                                                   "DONE or FAILED"})
    busy = fields.Boolean(metadata={"description": "pre-processing is waiting or running"})
    ready = fields.Boolean(metadata={"description": "pre-processing is over: the spans can be read and decided"})
    error = fields.String(allow_none=True)
    tokens = fields.Integer(allow_none=True)
    progress = fields.Integer(metadata={"description": "% of the document's suspicious spans people decided"})
    decided = fields.Integer()
    undecided = fields.Integer()


class DocumentListSchema(Schema):
    documents = fields.List(fields.Nested(DocumentSchema), required=True)


class UploadResultSchema(Schema):
    documents = fields.List(fields.Nested(DocumentSchema), required=True)
    refused = fields.List(fields.String(), required=True, metadata={"description": "files refused, and why"})
    notes = fields.List(fields.String(), required=True)
    waiting = fields.Integer(required=True, metadata={"description": "documents stored but not queued yet"})


class SpanSchema(Schema):
    first_token = fields.Integer(required=True)
    end_token = fields.Integer(required=True)
    start = fields.Integer(required=True, metadata={"description": "character offset in the document text"})
    end = fields.Integer(required=True)
    text = fields.String(required=True)
    decision = fields.String(required=True, metadata={"description": "PUBLIC, PRIVATE or SUSPICIOUS"})
    decided_by = fields.String(required=True, metadata={"description": "person (a token decision) or rule"})
    rule_level = fields.Float(allow_none=True)
    ne_types = fields.List(fields.String(), required=True)
    label_id = fields.Integer(allow_none=True)
    label = fields.String(allow_none=True)


class SpanListSchema(Schema):
    document_id = fields.Integer(required=True)
    status = fields.String(required=True)
    spans = fields.List(fields.Nested(SpanSchema), required=True)


class WindowSchema(Schema):
    """The annotation window exactly as the annotate page receives it (``GET /annotate/api/window``)."""

    class Meta:
        unknown = "include"

    window = fields.Dict(allow_none=True)
    message = fields.String()


class WindowQuerySchema(Schema):
    document_id = fields.Integer(validate=_ID)
    first_token = fields.Integer(validate=_TOKEN)
    end_token = fields.Integer(validate=_TOKEN)


class DecideSchema(Schema):
    """A decision on a span of the caller's window (the annotate page's ``POST /annotate/api/decide``)."""

    document_id = fields.Integer(required=True, validate=_ID)
    first_token = fields.Integer(required=True, validate=_TOKEN)
    end_token = fields.Integer(required=True, validate=_TOKEN)
    decision = fields.String(required=True, validate=validate.OneOf(("PUBLIC", "PRIVATE")))
    scope = fields.String(load_default="token", validate=validate.OneOf(("token", "word_type", "ne_type", "entity")))
    label_id = fields.Integer(validate=_ID)
    always = fields.Boolean()
    ne_type = fields.String(validate=validate.Length(max=100))
    request_id = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9_-]{8,64}$"))


class AcceptSchema(Schema):
    document_id = fields.Integer(required=True, validate=_ID)
    request_id = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9_-]{8,64}$"))


class LabelSpanSchema(Schema):
    """A label for a span of the caller's window: an existing label's id, or a name (and category) to make one."""

    document_id = fields.Integer(required=True, validate=_ID)
    first_token = fields.Integer(required=True, validate=_TOKEN)
    end_token = fields.Integer(required=True, validate=_TOKEN)
    label_id = fields.Integer(validate=_ID)
    label_name = fields.String(validate=validate.Length(min=1, max=200))
    label_category = fields.String(validate=validate.Length(max=60))
    always = fields.Boolean()
    request_id = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9_-]{8,64}$"))


class EntityQuerySchema(Schema):
    document_id = fields.Integer(required=True, validate=_ID)
    first_token = fields.Integer(required=True, validate=_TOKEN)
    end_token = fields.Integer(required=True, validate=_TOKEN)


class EntitySchema(Schema):
    """The entity of a span as the annotate page shows it (``entity: null`` when the span has none)."""

    entity = fields.Dict(allow_none=True)


class OpenSchema(Schema):
    document_id = fields.Integer(required=True, validate=_ID)
    start = fields.Integer(validate=_TOKEN)
    size = fields.Integer(validate=validate.Range(min=1, max=100000))
    #: from ``start`` itself, not from its sentence's start (widened only so that no span crosses an edge)
    exact = fields.Boolean()


class RuleSchema(Schema):
    id = fields.Integer(required=True)
    type = fields.String(required=True)
    condition = fields.String(required=True)
    decision = fields.String(required=True)
    confidence = fields.Float(required=True)
    case_sensitive = fields.Boolean(required=True)
    label = fields.String(allow_none=True)
    author = fields.String(allow_none=True)


class RuleListSchema(Schema):
    rules = fields.List(fields.Nested(RuleSchema), required=True)


class LabelSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    category = fields.String(allow_none=True)
    replacement = fields.String(allow_none=True)


class LabelListSchema(Schema):
    labels = fields.List(fields.Nested(LabelSchema), required=True)


class ReleaseStartSchema(Schema):
    kind = fields.String(load_default="pseudonymize", validate=validate.OneOf(OUTPUT_MODES),
                         metadata={"description": "output mode of the project ZIP"})


class ReleaseJobSchema(Schema):
    id = fields.Integer(required=True)
    project_id = fields.Integer(required=True)
    kind = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "QUEUED, RUNNING, DONE or FAILED"})
    stage = fields.String(allow_none=True)
    seconds = fields.Integer()
    size = fields.Integer(allow_none=True)
    error = fields.String(allow_none=True)
    done = fields.Integer(allow_none=True)
    total = fields.Integer(allow_none=True)
    file = fields.String(allow_none=True, metadata={"description": "where to download the ZIP once DONE"})


class ReportSchema(Schema):
    """The release report (``RELEASE_REPORT.json`` of every ZIP): counts only, never an original string."""

    class Meta:
        unknown = "include"


class QaDrawSchema(Schema):
    size = fields.Integer(load_default=100, validate=validate.Range(min=1, max=MAX_SAMPLE))


class QaTokenSchema(Schema):
    document_id = fields.Integer(required=True)
    token_id = fields.Integer(required=True)
    verdict = fields.String(allow_none=True)
    document = fields.String()
    before = fields.String()
    token = fields.String()
    after = fields.String()


class QaSampleSchema(Schema):
    sample_id = fields.Integer(required=True)
    tokens = fields.List(fields.Nested(QaTokenSchema), required=True)
    summary = fields.Dict()


class QaVerdictSchema(Schema):
    document_id = fields.Integer(required=True, validate=_ID)
    token_id = fields.Integer(required=True, validate=_TOKEN)
    verdict = fields.String(required=True, validate=validate.OneOf(("ok", "miss")))


class QaVerdictsSchema(Schema):
    verdicts = fields.List(fields.Nested(QaVerdictSchema), required=True, validate=validate.Length(max=MAX_SAMPLE))


class SavedSchema(Schema):
    saved = fields.Integer(required=True)


class KeyQuerySchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=3, max=1000),
                           metadata={"description": "why the key is needed (logged with who and when)"})


class ReviewDrawSchema(Schema):
    size = fields.Integer(validate=validate.Range(min=1, max=5000),
                          metadata={"description": "sentences to draw (default: what certifies the target)"})


class ReviewStretchSchema(Schema):
    first_token = fields.Integer(required=True)
    end_token = fields.Integer(required=True)
    text = fields.String()


class ReviewSentenceSchema(Schema):
    document_id = fields.Integer(required=True)
    first_token = fields.Integer(required=True)
    end_token = fields.Integer(required=True)
    stratum = fields.Raw(allow_none=True)
    misses = fields.Integer(allow_none=True)
    name = fields.String()
    #: the whole sentence
    text = fields.String()
    #: the stretches of it no window had shown when the sample was drawn: what the reviewer reads
    unseen = fields.List(fields.Nested(ReviewStretchSchema))


class ReviewSampleSchema(Schema):
    sample_id = fields.Integer(required=True)
    sentences = fields.List(fields.Nested(ReviewSentenceSchema), required=True)
    summary = fields.Dict()


class ReviewMissSchema(Schema):
    document_id = fields.Integer(required=True, validate=_ID)
    first_token = fields.Integer(required=True, validate=_TOKEN)
    misses = fields.Integer(required=True, validate=validate.Range(min=0, max=1000))


class ReviewMissesSchema(Schema):
    misses = fields.List(fields.Nested(ReviewMissSchema), required=True, validate=validate.Length(max=5000))
