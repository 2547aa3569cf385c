"""The last gate before a statement reaches a page: an allowlist of tags and attributes
(ammonia, through nh3). No scripts, no event handlers, no styles beyond a figure's width,
and no resource from outside the page's directory."""

from __future__ import annotations

import nh3

from problemtools_py.statements.images import is_url

TAGS = {
    "a",
    "p",
    "br",
    "hr",
    "em",
    "strong",
    "code",
    "pre",
    "u",
    "s",
    "del",
    "sub",
    "sup",
    "span",
    "div",
    "small",
    "blockquote",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "figure",
    "figcaption",
    "img",
    "section",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
}
ATTRIBUTES = {
    "*": {"class", "id"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "figure": {"style"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align"},
    "ol": {"start"},
}


def _keep(tag: str, attr: str, value: str) -> str | None:
    if (
        tag == "img"
        and attr == "src"
        and (is_url(value) or value.startswith("/") or ".." in value.split("/"))
    ):
        return None  # a statement may only show files copied beside the page
    if attr == "href" and not value.startswith(("http:", "https:", "mailto:", "#")):
        return None
    return value


def clean(html: str) -> str:
    result: str = nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        clean_content_tags={"script", "style", "iframe", "object", "embed", "template"},
        url_schemes={"http", "https", "mailto"},
        attribute_filter=_keep,
        filter_style_properties={"width"},
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
    return result
