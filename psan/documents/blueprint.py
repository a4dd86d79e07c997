"""The ``documents`` blueprint object, apart from its package so that the view modules importing it and the
package importing the views form no cycle."""
from flask import Blueprint

bp = Blueprint("documents", __name__, url_prefix="/documents")
