"""Words as HTML (the web companion's templates): a catalog's sentence holding markup
a template passes in (a link, a bold name), every other value escaped. The key is the
caller's, written literally where it is used (``trh("web.…", …)`` in a template: the
catalog test reads the templates too).

>>> from markupsafe import Markup
>>> str(tr_markup("web.bracket.champion_is", champion="<b>Ada</b>"))
'Champion: &lt;b&gt;Ada&lt;/b&gt;.'
>>> str(tr_markup("web.bracket.champion_is", champion=Markup("<b>Ada</b>")))
'Champion: <b>Ada</b>.'
"""

from __future__ import annotations

from markupsafe import Markup, escape

from bot.i18n import tr


def tr_markup(key: str, /, **args: object) -> Markup:
    """``tr(key, …)`` as markup, in the locale spoken: each value escaped unless it is
    markup itself, the catalog's own text trusted (it is ours, not a reader's)."""
    return Markup(tr(key, **{name: value if isinstance(value, Markup) else escape(value)
                             for name, value in args.items()}))
