"""Word lists, patterns and tag sets of cetd-plus, grouped by meaning, apart from the logic
(as trafilatura keeps its XPaths in ``xpaths.py``).  Each entry names the rules reading it;
the thresholds stay beside the rules that use them."""

from __future__ import annotations

import re

from ...page import BLOCK_TAGS
from ...parsing import xpath

__all__ = [
    "ADD_TO_CART",
    "ADD_TO_CART_WORDS",
    "AGENCY_NAMES",
    "ARTICLE_LABELLED_TAGS",
    "ARTICLE_TYPE",
    "BIO",
    "CALL",
    "CALL_WORDS",
    "CLASS_OR_ID",
    "CLASS_OR_ID_TEXTS",
    "COMMENT_FORM_NOTICE",
    "COMMENT_INVITATION",
    "COMPONENT_ATTRIBUTE_ENDINGS",
    "CONTROL_TAGS",
    "CREDIT",
    "CREDIT_WORD_RUNS",
    "DATE",
    "DATELINE_WORDS",
    "DISCLOSURE",
    "DISCLOSURE_WORDS",
    "ESCAPED_MARKUP",
    "FORM_TAGS",
    "FORUM_STAT",
    "FORUM_STAT_RUNS",
    "FORUM_STEMS",
    "HEADING_TAGS",
    "ITALIC_TAGS",
    "JAVASCRIPT",
    "LABELLED_TAGS",
    "LABEL_ATTRIBUTES",
    "LEGAL",
    "LINE_TAGS",
    "LINK_PRUNE_SPARED_TAGS",
    "LIST_TAGS",
    "LOOKED_UP_TAGS",
    "MODERATION_WORDS",
    "NOTE",
    "NOT_BLOCK_OR_PRE",
    "NOT_BLOCK_TAGS",
    "NO_COMMENT_TAGS",
    "PERMALINK_SIGNS",
    "PRODUCT_NOISE_STEMS",
    "PRODUCT_TYPES",
    "QUOTE_TAGS",
    "REGION_TAGS",
    "REMOVED_ROLES",
    "REMOVED_TAGS",
    "RESCUED_TAGS",
    "SCANNED_TAGS",
    "SITE_VOICE",
    "STOCK_LINE",
    "STOCK_RUNS",
    "TOP_CHROME_SPARED_TAGS",
    "TOP_CHROME_STEMS",
    "TOP_HIDDEN_CLASSES",
    "TO_READER",
    "WORD",
]

# --- Tags: what the rules look for, and what they read -----------------------------------------

#: ``removed_elements``: elements removed with their subtrees before counting.  ``video``, ``audio``,
#: ``canvas`` and ``iframe`` hold only fallback content, which a browser that plays or
#: draws them never shows ("Your browser does not support the video tag."; tuning half:
#: 5 pages up, 1 down by 0.001, both folds up).
REMOVED_TAGS = frozenset({"dialog", "footer", "figcaption", "video", "audio", "canvas", "iframe"})

REMOVED_ROLES = frozenset({"dialog", "alertdialog"})

#: ``not_blocks``: elements that are never a block, nor is anything inside them (besides links).
NOT_BLOCK_TAGS = frozenset({"aside"})
#: ... unless they hold one of these: the page's story, nested in them by markup left open.
REGION_TAGS = ("article", "main")

#: ``quoted_embeds``: a part labelled as noise whose text lies mostly in these is a post
#: the story quotes (an embedded tweet's ``blockquote.twitter-tweet``, an Instagram or
#: TikTok embed's fallback quote), not the page's furniture.
QUOTE_TAGS = frozenset({"blockquote"})

#: ... and ``<pre>``, one block (``not_blocks``): the tags :func:`density_sums` reads besides links.
NOT_BLOCK_OR_PRE = NOT_BLOCK_TAGS | {"pre"}

#: ``rescued_structures``: structures rescued between kept blocks, and their largest link density.
RESCUED_TAGS = frozenset({"pre", "table", "dl"})

#: ``datelines``, ``author_bio`` and ``legal_lines`` do not read headings.
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

#: The tags the structural rules, ``product_noise`` and ``orphan_headings`` look for, found in
#: one scan of the page's tag list (:func:`tag_positions`; the links are read from
#: :attr:`~scrapy_cetd.page.Page.is_link`).
LOOKED_UP_TAGS = (
    REMOVED_TAGS | NOT_BLOCK_TAGS | RESCUED_TAGS | HEADING_TAGS | {*REGION_TAGS, "button", "form", "noscript"}
)


#: ``form_parts``: form parts (a drop-down's options, a sign-up form) are not the story.
FORM_TAGS = frozenset({"select", "form"})

#: ``labelled_parts``: the elements whose labels are read: containers, and the parts named by their tag
#: (``form_parts`` and ``headline``).  Paragraphs, list items and inline elements are not read: fewer reads, and
#: on the tuning half F1 0.8862 -> 0.8863 (articles 0.9573 -> 0.9578) without them.
LABELLED_TAGS = frozenset("article aside div dl figure footer form h1 header nav ol section select table ul".split())

#: ``stock_lines`` and ``photo_credits`` read a line's text in these: block-level elements but a table's cells,
#: whose text is data ("Close" heads a column of share prices, "Print" is a step).
LINE_TAGS = BLOCK_TAGS - {"td", "th"}

#: ``link_pruning``, ``labelled_parts`` and ``stock_lines`` read only these elements inside a kept block.
SCANNED_TAGS = BLOCK_TAGS | LABELLED_TAGS


LIST_TAGS = frozenset({"ul", "ol"})

# ``link_pruning`` pruned every link-dense block-level part of a kept block, headings included.  In
# a roundup ("The 20 best movers in NYC") each item's title is a heading that links to the
# item ("3. Blue Moving"), and the story keeps it: on the tuning half 525 of the 619
# headings ``link_pruning`` pruned were in the gold text.  First half, two folds (odd / even),
# ``plus_rules.py --folds``: articles' shingle F1 0.9564 / 0.9535 -> 0.9575 / 0.9546
# (precision and recall both up), all pages' word F1 0.8929 / 0.8950 -> 0.8933 / 0.8953,
# no page type down on either fold.

#: ``link_pruning`` does not prune these, however link-dense ...
LINK_PRUNE_SPARED_TAGS: frozenset[str] = HEADING_TAGS

#: ``labelled_paragraphs``: on an article (the top block is prose standing alone), these
#: tags are read for the article-only labels too (``cta``, ``promo``, ``teaser``, ``disclaimer``):
#: a ``<p class="disclaimer">``, ``<p class="views-disclaimer">``, ``<p
#: class="article-cta">`` is removed.  ``labelled_parts`` reads labels on container tags only; news
#: and blog templates put their disclaimers and calls on a paragraph.  Empty: off.
ARTICLE_LABELLED_TAGS = frozenset({"p"})

ITALIC_TAGS = frozenset({"em", "i"})


#: The controls a shop puts on a product's page (found by :func:`tag_positions`), and the
#: label of the one that buys it.
CONTROL_TAGS = frozenset({"button", "form"})

#: Where a comment label names no readers' comments: code, whose highlighters label its
#: comments (``hljs-comment``, Prism's ``token comment``, ``lang-comment``), and graphics
#: (an icon sprite's ``<symbol id="icon-commenting">`` and its ``<title>``).
NO_COMMENT_TAGS = frozenset({"pre", "code", "svg"})

#: ... never these tags (a page declares its main part with them, whatever its class; the
#: search stops at a ``<main>``, :func:`~.blocks.top_outside_chrome`).
TOP_CHROME_SPARED_TAGS = frozenset({"article"})


# --- Labels: the class, id and data-* words that name a page's parts ---------------------------

#: The attributes whose values are an element's label words, besides ``data-*`` ones.
LABEL_ATTRIBUTES = frozenset(("class", "id"))

COMPONENT_ATTRIBUTE_ENDINGS = ("testid", "component", "module", "category")

CLASS_OR_ID = xpath("descendant-or-self::*/@class | descendant-or-self::*/@id")
#: ... the same values as plain strings, which know no element: a third cheaper to make,
#: for a search that most pages fail.
CLASS_OR_ID_TEXTS = xpath("descendant-or-self::*/@class | descendant-or-self::*/@id", smart_strings=False)


#: ``product_noise``: on a product page (:func:`is_product_page`), the highest elements whose label
#: (the ``class``, ``id`` and component-naming ``data-*`` words, :func:`element_label`'s) has a
#: word starting with one of these stems are removed before counting, as ``removed_elements``'s elements
#: are: customers' reviews, "recommended"/"you may also like" carousels, upsells.  Each
#: stem's ablation lowers a fold of the tuning half and raises none; ``rating``,
#: ``question``, ``faq``, ``slider``, ``shipping``, ... were measured and not kept
#: (``docs/cetd-plus.md``).
PRODUCT_NOISE_STEMS: tuple[str, ...] = ("review", "recommend", "carousel", "upsell")

ADD_TO_CART = re.compile(r"add[-_ ]?to[-_ ]?(?:cart|bag|basket)|buy[-_ ]?now", re.IGNORECASE)
#: ... a word each of its matches holds (lower case: no other character matches these
#: letters case-blind), looked for first.
ADD_TO_CART_WORDS = ("add", "buy")

#: ``forum_furniture``: class and id words (cut and matched as :mod:`.labels` does: a word starting
#: with a stem) that name the parts forum software sets around each post's text: the
#: poster's signature (phpBB, vBulletin, XenForo, GameFAQs), the poster's title, banner
#: and statistics (XenForo's ``message-userTitle``, ``message-userBanner`` and
#: ``message-userExtras``: joined, messages, reaction score).  None of them is in a forum
#: page's main content.
FORUM_STEMS: tuple[str, ...] = ("signature", "usertitle", "userbanner", "userextras")

#: On pages that are not articles (products, collections, services, listings) the densest
#: block is often in the page's furniture: a footer's notice, a newsletter box, a
#: testimonial carousel.  When an ancestor of the top block (below body, holding at most
#: ``TOP_CHROME_MAX_SHARE`` of the page's characters) is labelled with one of these stems
#: (class, id and component-naming ``data-*`` words, cut and matched as :mod:`.labels`
#: does), that part is never a block (DensitySum 0, as ``not_blocks``'s asides) and the top block
#: is chosen again, at most ``TOP_CHROME_TRIES`` times.  Never a ``<main>``, an
#: ``<article>`` or ``role=main`` (a newsletter's archive page labels its story so), nor
#: an ancestor of a ``<main>`` or ``role=main`` on the path (a grid column labelled
#: ``left-navigation`` holding the page's ``<main>``).
#: Tuning half, two folds (``plus_rules.py --folds``, ``--set TOP_CHROME_STEMS=[]``
#: before): other pages' word F1 0.7953 / 0.8072 -> 0.7988 / 0.8073, articles 0.9626 /
#: 0.9650 -> 0.9626 / 0.9653 (shingle F1 0.9586 / 0.9559 -> 0.9586 / 0.9562); 10 pages
#: up, 3 down (products whose new top block is a small callout or notice); ``signature``
#: (``forum_furniture``'s poster's signature, here as the top block) then 1 forum page of the even
#: fold up (0.502 -> 0.689), none down.  Measured and
#: not kept: ``menu`` (a sub-menu region holding a listing), ``faq`` (service pages' FAQs
#: are content: 6 up, 6 down), ``seo`` (collections' SEO text: odd fold up, even down),
#: ``header`` (2 up, 3 down), ``carousel`` and ``slider`` (listings' and products' own
#: carousels), ``announcement`` (one page), ``gallery`` (a product's images: 1 down),
#: ``cookie``, ``modal``, ``popup`` and ``banner`` together (2 down), ``adsense`` and
#: ``sponsor`` (no page changed).  Empty: off.
TOP_CHROME_STEMS: tuple[str, ...] = ("footer", "newsletter", "testimonial", "nav", "signature")

#: ... and a part whose ``class`` has one of these words whole (a part the page hides; not
#: with a responsive class that shows it again: ``hidden md:block``).  Tuning half, two
#: folds: other pages' word F1 0.7988 / 0.8073 -> 0.7995 / 0.8081, articles unchanged; 2
#: pages up (a product's hidden spec box, a forum's hidden template), none down.
#: ``collapse`` (accordions' closed panels: content) was not taken.  Empty: off.
TOP_HIDDEN_CLASSES: frozenset[str] = frozenset({"hide", "hidden"})


# --- Declared types: what a page says it is (JSON-LD, og:type) ---------------------------------

#: The schema.org types of an article: ``Article`` and its subtypes (``NewsArticle``,
#: ``TechArticle``, ...) and ``BlogPosting``; not ``DiscussionForumPosting``.
ARTICLE_TYPE = re.compile(r"(?:Article|BlogPosting)$")

#: The JSON-LD types that declare the page's product.
PRODUCT_TYPES = frozenset({"Product", "ProductGroup"})


# --- Texts of removed elements -----------------------------------------------------------------

JAVASCRIPT = re.compile(r"javascript", re.IGNORECASE)

#: ``removed_elements`` also removes a ``<noscript>`` whose whole content is one text that is markup
#: ("&lt;img src=... height=1&gt;"): a serializer escaped the fallback tags (BBC pages as
#: some tools store them).  With no tags inside, that text has the highest text density
#: on the page and was taken for the story (the whole text of a BBC News page, stored so,
#: was a tracking pixel's URL).
ESCAPED_MARKUP = re.compile(r"\s*<[a-zA-Z!/]")

#: ``removed_elements`` also removes a link whose whole text is one of these signs: a heading's
#: permalink (Sphinx's and MkDocs's ``<a class="headerlink" href="#...">¶</a>``), which a
#: browser shows on hover and no gold text of the tuning half holds ("Middleware¶" on 5
#: documentation pages; "#" and "↩" links were measured too: gold keeps them on half their
#: pages).  Empty: off.
PERMALINK_SIGNS = frozenset({"¶"})


# --- Words and dates ---------------------------------------------------------------------------

WORD = re.compile(r"\w+")

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"

DATE = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b,?(?:\s+\d{{4}})?"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:\s+\d{{4}})?|\b{_MONTH}\s+\d{{4}}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b"
    r"|\b\d+\s*(?:min(?:ute)?s?|hours?|hrs?|days?)\s+(?:read|ago)\b"
    r"|\b(?:updated|published|posted)\b:?\s+(?:at\s+)?\d{1,2}:\d{2}\s*[ap]\.?m\b",
    re.IGNORECASE,
)

DATELINE_WORDS = re.compile(
    r"\b(?:updated|published|posted|modified|last|on|at|by|and|in|read|reading|time|date|am|pm|[a-z]{2,4}t"
    r"|\d{1,2}:\d{2}|\d+)\b",
    re.IGNORECASE,
)


# --- Stock lines: the web's fixed phrases for parts that are not the story ---------------------

_STOCK_PHRASES = (
    r"(?:advertisement|advertising|ad|sponsored(?: content)?|story continues below(?: advertisement)?"
    r"|continue reading(?: below)?|scroll to continue(?: with content)?"
    r"|share(?: this)?(?: article| story| post| page)?(?: on| via)?|follow us(?: on)?"
    r"|subscribe(?: now| today| here)?|sign up(?: now| today| here)?|read more|read next"
    r"|related(?: articles| stories| posts| content| links| news| reading| coverage)?"
    r"|recommended(?: for you| stories| articles)?|you (?:may|might) also like|more stories|more news"
    r"|trending(?: now| stories)?|most popular|most read|image \d+ of \d+|photo \d+ of \d+"
    r"|like this|loading|like loading"
    r"|close|previous|next|(?:show |hide )?caption|expand|collapse|enlarge|click to (?:enlarge|expand)"
    r"|play video|watch video"
    r"|listen(?: to this article)?|print(?: this)?|email|\d+ comments?|leave a (?:comment|reply)|view comments"
    r"|show comments|back to top|skip (?:to )?(?:content|ad|advertisement)"
    # The same parts in the other languages of the dev sets' news pages (German, French,
    # Spanish, Portuguese, Italian, Polish): ad slots, "read also", "more on this", share.
    r"|anzeige|werbung|publicité|publicidad|publicidade|pubblicità|reklama"
    r"|(?:zum )?weiterlesen|(?:lesen sie|lies) (?:auch|mehr)|mehr zum thema|mehr (?:dazu|anzeigen)"
    r"|das könnte (?:sie|dich) auch interessieren|(?:artikel )?teilen|bild (?:anzeigen|schließen)"
    r"|(?:à )?lire (?:aussi|la suite)|sur le même sujet|partager"
    r"|(?:le|te) puede interesar|(?:lea|lee) también|leer más|compartir"
    r"|leia (?:também|mais)|compartilhe|partilhe|leggi anche|condividi"
    r"|czytaj (?:też|także|więcej)|udostępnij"
    # The English lines above for printing, loading, comments, related parts and tags, said
    # in the same six languages.
    r"|drucken|imprimer|imprimir|stampa|drukuj"
    # German boxes' headings and controls: "more information", "more topics", "already
    # read?", "comment" (trafilatura-eval 0.92234 -> 0.92310, 5 pages up, none down; the
    # other two sets unchanged)
    r"|weitere informationen|mehr themen|schon gelesen|kommentieren"
    r"|wird geladen|chargement|cargando|carregando|caricamento|ładowanie"
    r"|comments are closed|no comments(?: yet)?|kommentare? (?:schreiben|anzeigen)|(?:bisher |noch )?keine kommentare"
    r"|kommentare (?:sind )?geschlossen|aucun commentaire|laisser un commentaire|commentaires fermés"
    r"|deja un comentario|sin comentarios|comentarios cerrados|deixe um comentário|sem comentários"
    r"|lascia un commento|nessun commento|brak komentarzy|dodaj komentarz|skomentuj"
    r"|related topics|tags|schlagwörter|schlagworte|etiquetas|mots-clés"
    r"|(?:ähnliche|verwandte|weitere) artikel(?: zum thema)?|auch interessant|empfohlene (?:artikel|beiträge)"
    r"|articles (?:liés|similaires)|(?:notas|noticias|artículos) relacionad[oa]s"
    r"|(?:notícias|matérias|artigos) relacionad[oa]s|articoli correlati|powiązane artykuły|zobacz (?:też|także)"
    r"|(?:like it\W*)?share it|(?:diesen |den )?(?:artikel|beitrag|seite) teilen)\W*"
)

#: A stock line is one or more of these ("Caption Close", "Share Tweet Email").
STOCK_LINE = re.compile(rf"(?:{_STOCK_PHRASES})+", re.IGNORECASE)

#: The same phrases as whole lines: one scan over the page's text runs, lower-cased and
#: joined by newlines (a pattern starting with a literal newline is searched for quickly).
STOCK_RUNS = re.compile(rf"\n{_STOCK_PHRASES}(?=\n)")


# --- People: authors' bios, contributors' notes, authors' boxes --------------------------------

_NOT_A_NAME = "It This That The These Those There Here He She They We You I A An His Her Its Our Their My Each One"

BIO = re.compile(
    rf"(?:about the author\W*)?(?!(?:{'|'.join(_NOT_A_NAME.split())})\b)(?:[A-Z][\w.'’-]*\s+){{0,3}}"
    r"[A-Z][\w.'’-]*\s+(?:is|was|has been|covers|writes|reports)\b.{0,200}?"
    r"\b(?:writer|journalist|reporter|editor|correspondent|contributor|author|columnist|freelance"
    r"|covers|covering|writes about|writing about)\b",
    re.DOTALL,
)

NOTE = re.compile(
    rf"\(?(?!(?:{'|'.join(_NOT_A_NAME.split())})\b)(?:[A-Z][\w.'’-]*\s+){{0,3}}[A-Z][\w.'’-]*,?\s+"
    r"(?:is|was|has been|serves|holds|leads|teaches|works)\b"
)


# --- The site speaking: legal lines, calls to subscribe or support, affiliate disclosures ------

LEGAL = re.compile(
    r"(?:©|\(c\)\s*\d{4}|copyright\b)|.*\b(?:all rights reserved|alle rechte vorbehalten|tous droits réservés"
    r"|todos los derechos reservados|todos os direitos reservados|tutti i diritti riservati"
    r"|wszelkie prawa zastrzeżone)\b",
    re.IGNORECASE | re.DOTALL,
)

CALL = re.compile(
    r"^sign[- ]?up\b|\b(?:newsletters?|inbox|subscribe|subscribing|donat\w*|patreon|please consider"
    r"|support (?:our|us|independent))\b"
    r"|^follow\b.{0,80}?\bon (?:facebook|twitter|x|instagram|youtube|tiktok|telegram|linkedin|threads|bluesky"
    r"|whatsapp|google news)\b",
    re.IGNORECASE,
)

#: ... a word each of its matches holds (lower case), looked for first.
CALL_WORDS = ("sign", "newsletter", "inbox", "subscrib", "donat", "patreon", "please consider", "support", "follow")

#: ... addressed to the reader: "you", "your", "our", "us", or opening with the call's verb.
TO_READER = re.compile(
    r"\b(?:you|your|our|us)\b|^(?:subscribe|sign[- ]?up|join|donate|support|follow|to (?:read|continue))\b",
    re.IGNORECASE,
)

DISCLOSURE = re.compile(
    r"\baffiliate links?\b|\b(?:earn|receive|make|get)s? (?:a |us a )?(?:small )?(?:commission|compensation)"
    r"|\bpaid promotion|\bat no (?:extra|additional) cost to you|\b(?:chosen|selected|products) independently"
    r"|\bindependently (?:chosen|selected)",
    re.IGNORECASE,
)

#: ... a word each of its matches holds (lower case), looked for first.
DISCLOSURE_WORDS = ("affiliate", "commission", "compensation", "paid promotion", "at no ", "independently")

#: ... in the site's own voice ("we", "us", "our", "I", "my"): "Agents earn a commission
#: of 6%" is a story's sentence.
SITE_VOICE = re.compile(r"\b(?:we|us|our|i|my)\b", re.IGNORECASE)


# --- Pictures' credits -------------------------------------------------------------------------

#: Picture agencies, as a credit names them (lower-cased; found with ``str.find``, and in
#: ``_AGENCIES`` with "iStockphoto"'s suffix).
AGENCY_NAMES = (
    "getty images",
    "shutterstock",
    "istock",
    "ap photo",
    "unsplash",
    "pexels",
    "depositphotos",
    "reuters",
    "afp",
)

_AGENCIES = rf"(?:{'|'.join(AGENCY_NAMES)})(?:photo)?"

#: The credits that open with their word, to the end of the line: "Photo: ...", "Image
#: credit: ...", "(Image: ...)", "Photo by ...", "Credit: ...", "Photo courtesy of ...", and
#: the same words in the dev sets' other languages: "Foto: ...", "Bild von ...",
#: "Titelbild: ...", "Bildquelle: ...", "Crédits photos : ...", "Fot. ...", "Zdjęcie: ...".
#: (those: trafilatura-eval F1 0.92188 -> 0.92234, 3 pages up, none down; wcxb-dev and
#: readability-pages unchanged; ``docs/cetd-plus.md``, ``photo_credits``).
_CREDIT_WORDED = (
    r"(?:\(?(?:photo(?:graph)?|image|picture|illustration|foto|(?:titel|beitrags)?bild(?:er)?|zdjęcie)s?"
    r"(?: credits?| sources?|quelle)?\s*(?::|by\b|von\b)"
    r"|fot\.\s|(?:credits?|crédits?(?: photos?)?)\s*:|\(?(?:photo|image)s?\s*(?:courtesy|via)\b)[^\n]*"
)

#: A credit: one that opens with its word, or an agency's name alone or beside a
#: photographer's ("Getty Images / Holger Leue", "Jane Doe/AFP"), never a sentence naming
#: an agency ("Shutterstock shares fell").
_CREDIT_PHRASE = rf"(?:{_CREDIT_WORDED}|(?:©\s*)?(?:[^\n/]{{0,60}}/\s*)?{_AGENCIES}(?:\s*(?:/|via\b)[^\n]{{0,60}})?\W*)"

CREDIT = re.compile(_CREDIT_PHRASE, re.IGNORECASE)

#: The credits opening with their word as whole runs of the page's text (lower-cased,
#: joined by newlines), one pattern shared with :data:`CREDIT`.
CREDIT_WORD_RUNS = re.compile(rf"\n{_CREDIT_WORDED}(?=\n)")


# --- Comment forms' notices --------------------------------------------------------------------

#: Notices of a comment form, never a reader's words: a part holding one is no comment.
COMMENT_FORM_NOTICE = re.compile(
    r"akismet|must be logged in|(?:log ?in|sign ?in|register) to (?:post a )?(?:comment|reply)"
    r"|email address will not be published|required fields are marked|comments are (?:now )?closed"
    r"|notify me of (?:follow-up|new) comments|comment policy|awaiting moderation"
    r"|comments (?:are|will be) (?:moderated|reviewed)",
    re.IGNORECASE,
)

#: Words about the moderation of comments (lower case), in the languages of the dev sets' pages
#: (``moderated``, ``moderator``, ``moderador``, ``modéré``, ``moderiert``, ``moderowane``) at
#: a word's start: a short text holding one, beside a comment section, is the section's
#: notice (``comment_notices``).  "Comment" alone is not enough: a story's last line often
#: invites comments (three dev pages lost such a line).
MODERATION_WORDS = ("moderat", "moderad", "modér", "moderier", "moderow")

#: ... and short lines that invite a comment ("Share your thoughts...", "Join the
#: conversation", "No comments yet"), a notice only as a line of their own.
COMMENT_INVITATION = re.compile(
    r"\W*(?:share your thoughts|join the (?:conversation|discussion)|let us know what you think"
    r"|be the first to (?:comment|reply)|no comments(?: yet)?|there are no comments(?: added)?(?: yet)?)\W*",
    re.IGNORECASE,
)


# --- Forum posters' statistics -----------------------------------------------------------------

_STAT_LABELS = (
    r"(?:posts|joined|join date|registered|member since|messages|reaction score|likes received"
    r"|trophy points|best answers|reputation|karma)"
)

FORUM_STAT = re.compile(
    rf"{_STAT_LABELS}(?:\s*:\s*[\w,.:/+ -]{{0,40}}|\s+[\d,.]+[km]?)|[\d,.]+[km]? likes?", re.IGNORECASE
)

#: The same labels at a text run's start, in the short runs joined by newlines.
FORUM_STAT_RUNS = re.compile(rf"\n(?:{_STAT_LABELS}|[\d,.]+[km]? likes?\n)")
