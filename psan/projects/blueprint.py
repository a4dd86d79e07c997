"""The ``projects`` blueprint object, apart from its package so that the view modules importing it and the
package importing the views form no cycle."""
from flask import Blueprint

bp = Blueprint("projects", __name__, url_prefix="/projects")
