"""UIMA CAS XMI as INCEpTION reads and writes it (through dkpro-cassis), with DKPro Core's types.

Spans are ``de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity`` annotations (INCEpTION's named-entity
layer) whose feature ``value`` is the label; sentences and tokens are DKPro's ``Sentence`` and ``Token``, and
``DocumentMetaData`` names the document.  The CAS's text (the sofa) is the document's text, so offsets need
no alignment; cassis converts UIMA's UTF-16 offsets.  Reading is lenient about types psan does not know
(INCEpTION's custom layers are ignored), and the XML is first parsed with defusedxml: a DTD or entity
declaration (billion laughs, external entities) is refused before cassis sees the file.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError, make_span
from psan.tool.formats.annotations.segment import segment

NE_TYPE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
SENTENCE_TYPE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
TOKEN_TYPE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"  # noqa: S105  # nosec B105
METADATA_TYPE = "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData"


@lru_cache(maxsize=1)
def typesystem() -> Any:  # noqa: ANN401 - cassis.TypeSystem
    """DKPro Core's type system, with DKPro's ``DocumentMetaData`` (which cassis's copy of the DKPro types
    lacks) as INCEpTION declares it.  Loaded once: building it costs a fifth of a second, reading or writing a
    CAS does not change it."""
    from cassis import load_dkpro_core_typesystem
    ts = load_dkpro_core_typesystem()
    if not ts.contains_type(METADATA_TYPE):
        meta = ts.create_type(METADATA_TYPE, supertypeName="uima.tcas.DocumentAnnotation")
        for feature in ("documentTitle", "documentId", "documentUri", "collectionId", "documentBaseUri"):
            ts.create_feature(meta, feature, "uima.cas.String")
        ts.create_feature(meta, "isLastSegment", "uima.cas.Boolean")
    return ts


def _refuse_unsafe_xml(data: bytes) -> None:
    """Stream the XML through defusedxml (elements dropped as they end: a big file costs no tree) before cassis
    parses it: a DTD, an entity declaration or malformed XML is refused with the reason."""
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException
    try:
        for _, element in SafeET.iterparse(io.BytesIO(data), events=("end",), forbid_dtd=True):
            element.clear()
    except DefusedXmlException as err:
        raise AnnotationFormatError(f"the XMI file declares a DTD or entities, which psan refuses ({err})") from None
    except SafeET.ParseError as err:
        raise AnnotationFormatError(f"not well-formed XML ({err})") from None


class Xmi:
    name = "xmi"
    title = "UIMA CAS XMI (INCEpTION)"
    suffix = ".xmi"
    multi_document = False
    nests = True

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:
        _refuse_unsafe_xml(data)
        from cassis import load_cas_from_xmi
        try:
            cas = load_cas_from_xmi(io.BytesIO(data), typesystem=typesystem(), lenient=True)
        except Exception as err:  # noqa: BLE001 - cassis on untrusted input: any failure is a refused file
            raise AnnotationFormatError(f"not a UIMA CAS XMI file cassis can read ({err.__class__.__name__}: "
                                        f"{err})") from None
        text = cas.sofa_string or ""
        doc_name = None
        for meta in cas.select(METADATA_TYPE):
            doc_name = getattr(meta, "documentTitle", None) or getattr(meta, "documentId", None) or None
            break
        doc = AnnotatedText(name=doc_name, text=text)
        for ne in cas.select(NE_TYPE):
            label = getattr(ne, "value", None) or ne.type.name.rsplit(".", 1)[-1]
            if ne.begin is None or ne.end is None or not 0 <= ne.begin < ne.end <= len(text):
                raise AnnotationFormatError(f"NamedEntity {ne.begin}-{ne.end} is outside the text")
            doc.spans.append(make_span(ne.begin, ne.end, label))
        doc.spans.sort(key=lambda s: (s.start, -s.end))
        return [doc]

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        from cassis import Cas
        doc = docs[0]
        ts = typesystem()
        cas = Cas(typesystem=ts)
        cas.sofa_string = doc.text or ""
        cas.sofa_mime = "text/plain"
        meta_type = ts.get_type(METADATA_TYPE)
        title = doc.name or "document"
        cas.add(meta_type(begin=0, end=len(doc.text or ""), documentTitle=title, documentId=title))
        sentence_type, token_type, ne_type = ts.get_type(SENTENCE_TYPE), ts.get_type(TOKEN_TYPE), ts.get_type(NE_TYPE)
        for sentence in segment(doc):
            cas.add(sentence_type(begin=sentence[0][0], end=sentence[-1][1]))
            for s, e in sentence:
                cas.add(token_type(begin=s, end=e))
        for sp in sorted(doc.spans, key=lambda s: (s.start, -s.end, s.label)):
            cas.add(ne_type(begin=sp.start, end=sp.end, value=sp.label))
        return cas.to_xmi().encode("utf-8"), 0


register(Xmi())
