"""Project administration.

The pipeline JSON is validated by building a :class:`psan.tool.detection.pipeline.Pipeline` (cached, so the
worker-side cost is paid once); any error becomes a form message, never a 500.
"""
from __future__ import annotations

import json
import re

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from psan.projects.blueprint import bp
from psan.projects.forms import ConfirmDeleteForm, ProjectForm
from psan.runtime import db
from psan.store.admin import accounts as store_accounts
from psan.store.admin import key_rings as store_key_rings
from psan.store.admin import projects as store_projects
from psan.store.admin.rules import project_sensitive_types
from psan.store.corpus import documents as store_documents
from psan.store.corpus.pipelines import lacks_ner, validate_config
from psan.store.corpus.reannotate import refresh_project_statuses
from psan.store.shared.names import clean_name
from psan.tool.models.fetch import install_hint
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category
from psan.web.access import admin
from psan.web.input_guard import MAX_JSON_DEPTH, BadInput, json_problem
from psan.web.reannotate import reannotate


@bp.route("/")
@admin
def index():
    return render_template("projects/index.html", projects=store_projects.list_projects())


def _annotators() -> list[tuple[int, str]]:
    rows = store_accounts.annotators(db.get_conn())
    return [(r["id"], f"{r['name']} <{r['email']}>" if r["name"] else r["email"]) for r in rows]


def _parse_pipeline(form: ProjectForm) -> tuple[dict | None, bool]:
    """(config, ok); adds a form error when the JSON is bad or does not build a pipeline."""
    raw = (form.pipeline.data or "").strip()
    if not raw:
        return {}, True
    try:
        config = json.loads(raw)
    except ValueError as exc:
        form.pipeline.errors.append(gettext("Invalid JSON: %(error)s", error=exc))
        return None, False
    except RecursionError:
        raise BadInput(gettext("The JSON is nested too deeply (at most %(depth)s levels).",
                               depth=MAX_JSON_DEPTH)) from None
    problem = json_problem(config)
    if problem:
        raise BadInput(problem)  # a 400: no pipeline is ever nested like this
    error = validate_config(config, form.language.data)
    if error:
        form.pipeline.errors.append(error)
        return None, False
    return config, True


#: what a category or an entity type can be called: letters, digits, "_", "-" and "." (CNEC "gu", "P", "B-PER")
_TYPE_NAME = re.compile(r"[^\W_][\w.-]*")
_CATEGORY_NAMES = frozenset(c.value for c in Category)


def _save(form: ProjectForm, project_id: int | None) -> int | None:
    ok = form.validate_on_submit()
    if not ok:
        return None
    config, ok = _parse_pipeline(form)
    if form.private_threshold.data >= form.public_threshold.data:
        form.private_threshold.errors.append(gettext("Must be below the public threshold."))
        ok = False
    odd = [t for t in store_projects.parse_sensitive_types(form.sensitive_types.data) if not _TYPE_NAME.fullmatch(t)]
    if odd:  # "<b>", ";;;": a typo or markup, never the name of a category or an entity type
        form.sensitive_types.errors.append(gettext("Not a category or an entity type: %(items)s.",
                                                   items=", ".join(odd)))
        ok = False
    name = clean_name(form.name.data)
    if not name:
        form.name.errors.append(gettext("The name is empty."))
        ok = False
    elif store_projects.name_taken(name, project_id):
        form.name.errors.append(gettext("A project with this name exists."))
        ok = False
    if not ok:
        return None
    values = {"name": name, "language": form.language.data, "pipeline": config,
              "public_threshold": form.public_threshold.data, "private_threshold": form.private_threshold.data,
              "ask_labels": bool(form.ask_labels.data),
              "sensitive_types": store_projects.parse_sensitive_types(form.sensitive_types.data),
              "annotators_choose_document": bool(form.annotators_choose_document.data),
              "lookups_everywhere": bool(form.lookups_everywhere.data),
              "tracked_changes": form.tracked_changes.data or "accept",
              "double_share": (form.double_percent.data or 0) / 100,
              "review_mode": form.review_mode.data, "qa_target": (form.qa_percent.data or 0.5) / 100}
    before = project_sensitive_types(db.get_conn(), project_id) if project_id is not None else frozenset()
    unknown = [t for t in values["sensitive_types"] if t not in _CATEGORY_NAMES and category_of(t) is Category.OTHER]
    if unknown:  # a project's own model may have such a type; a typo would otherwise go unnoticed
        flash(gettext("No recognizer of psan knows these types; they are kept as written: %(items)s.",
                      items=", ".join(unknown)), "warning")
    saved_id = store_projects.save_project(values, project_id)
    store_projects.set_members(saved_id, form.members.data or [])
    refresh_project_statuses(db.get_conn(), saved_id)
    if project_id is not None and store_projects.note_blocking_changes(
            db.get_conn(), saved_id, before, frozenset(values["sensitive_types"])):
        reannotate(saved_id)  # the sensitive list changed which rules outrank which (psan.tool.decisions.precedence)
    return saved_id


@bp.route("/new", methods=["GET", "POST"])
@admin
def create():
    form = ProjectForm()
    form.members.choices = _annotators()
    if _save(form, None) is not None:
        flash(gettext("Project created."), "success")
        return redirect(url_for("projects.index"))
    return render_template("projects/edit.html", form=form, project=None)


@bp.route("/<int:project_id>", methods=["GET", "POST"])
@admin
def edit(project_id: int):
    project = store_projects.get_project(project_id) or abort(404)
    form = ProjectForm()
    form.members.choices = _annotators()
    if request.method == "GET":
        form.name.data = project["name"]
        form.language.data = project["language"]
        stored = project["pipeline"]
        form.pipeline.data = json.dumps(stored, indent=2, ensure_ascii=False) if stored else ""
        form.public_threshold.data = project["public_threshold"]
        form.private_threshold.data = project["private_threshold"]
        form.ask_labels.data = project["ask_labels"]
        form.sensitive_types.data = ", ".join(project["sensitive_types"] or ())
        form.annotators_choose_document.data = project["annotators_choose_document"]
        form.lookups_everywhere.data = project["lookups_everywhere"]
        form.tracked_changes.data = project.get("tracked_changes") or "accept"
        form.double_percent.data = round(100 * project["double_share"])
        form.review_mode.data = project["review_mode"]
        form.qa_percent.data = round(100 * project["qa_target"], 4)
        form.members.data = store_projects.member_ids(project_id)
    elif _save(form, project_id) is not None:
        saved = store_projects.get_project(project_id) or project
        if (saved["pipeline"], saved["language"]) != (project["pipeline"], project["language"]):
            flash(gettext("Project saved. A changed pipeline applies to documents uploaded from now on."), "success")
        else:
            flash(gettext("Project saved."), "success")
        return redirect(url_for("projects.index"))
    return render_template("projects/edit.html", form=form, project=project,
                           no_ner=lacks_ner(project["pipeline"], project["language"]),
                           ner_hint=install_hint(project["language"]),
                           key_ring=store_key_rings.ring_of(db.get_conn(), project_id),
                           key_rings=store_key_rings.rings(db.get_conn()))


@bp.route("/<int:project_id>/key-ring", methods=["POST"])
@admin
def key_ring(project_id: int):
    """Share the project's identities through a key ring (by name; created when new), or stop sharing.

    Why: the same real person must keep one pseudonym across the projects of one study and across
    releases; identities the project already used stay its own, the ring fills in the rest.
    """
    store_projects.get_project(project_id) or abort(404)
    try:
        ring = store_key_rings.link_project(db.get_conn(), project_id, request.form.get("key_ring", ""))
    except ValueError as exc:
        abort(400, str(exc))
    flash(gettext("The project now shares its identities through the key ring.") if ring is not None
          else gettext("The project keeps its own key only."), "success")
    return redirect(url_for("projects.edit", project_id=project_id))


@bp.route("/<int:project_id>/delete", methods=["GET", "POST"])
@admin
def delete(project_id: int):
    project = store_projects.get_project(project_id) or abort(404)
    if project["is_default"]:
        flash(gettext("The default project cannot be deleted."), "warning")
        return redirect(url_for("projects.index"))
    form = ConfirmDeleteForm()
    if form.validate_on_submit():
        if form.confirm_name.data.strip() != project["name"]:
            form.confirm_name.errors.append(gettext("The name does not match."))
        else:
            store_projects.delete_project(project_id)
            flash(gettext("Project %(name)s deleted with all its documents.", name=project["name"]), "success")
            return redirect(url_for("projects.index"))
    documents = store_documents.count_documents(db.get_conn(), project_id)
    return render_template("projects/delete.html", form=form, project=project, documents=documents)
