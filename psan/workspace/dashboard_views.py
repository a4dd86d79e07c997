"""The admin's project dashboard: progress, undecided spans, throughput, forecast and charts."""
from __future__ import annotations

from flask import abort, current_app, render_template
from flask_babel import gettext

from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus import task_failures
from psan.store.review import dashboard as store_dashboard
from psan.store.review import double_annotation as store_double
from psan.web.access import admin
from psan.web.charts import bar_chart, line_chart
from psan.web.code_names import category_name, how_name
from psan.workspace.blueprint import bp

#: at most this many documents are listed with their undecided spans (the most first)
DOCUMENTS_SHOWN = 50


def _charts(data: dict) -> dict:
    progress = data["progress"]
    days = [p["day"] for p in progress]
    categories = data["by_category"]
    return {
        "progress": line_chart(gettext("Progress over time"), days, [gettext("decisions"), gettext("windows done")],
                               [[p["decisions_total"] for p in progress], [p["windows_total"] for p in progress]]),
        "category": bar_chart(gettext("Decisions by category"), [category_name(c["category"]) for c in categories],
                              [gettext("public"), gettext("private")],
                              [[c["public"] for c in categories], [c["private"] for c in categories]]),
        "how": bar_chart(gettext("Spans by how decided"), [how_name(h) for h in data["by_how"]],
                         [gettext("spans")], [list(data["by_how"].values())]),
    }


@bp.route("/projects/<int:project_id>/dashboard")
@admin
def dashboard(project_id: int):
    project = store_projects.get_project(project_id) or abort(404)
    size = int(current_app.config.get("DEFAULT_WINDOW_SIZE", 300))
    conn = db.get_conn()
    data = store_dashboard.project_dashboard(conn, project_id, size)
    compared, agreement = store_double.project_agreement(conn, project_id)
    return render_template("workspace/dashboard.html", project=project, data=data, charts=_charts(data),
                           compared=compared, agreement=agreement, double_counts=store_double.counts(conn, project_id),
                           documents_shown=DOCUMENTS_SHOWN, projects=store_projects.list_projects(),
                           task_failures=task_failures.recent(conn, project_id))
