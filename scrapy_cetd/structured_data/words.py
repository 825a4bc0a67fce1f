"""The data the readers of values use: month names in the languages dates are read in, and
the word lists that tell a person's name from a job title, a role, a credential or a label."""

from __future__ import annotations

__all__ = [
    "COMPANY_SUFFIXES",
    "CREDENTIALS",
    "JOB_TAIL",
    "JOB_WORDS",
    "MONTHS",
    "NAME_PARTICLES",
    "NOT_A_NAME_PHRASES",
    "NOT_A_NAME_WORDS",
    "ROLE_WORDS",
]

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "jan january janv janvier jän jänner januar enero ene gennaio gen janeiro januari января stycznia"
            " ocak tammikuuta ledna ianuarie"
            " ιανουαρίου січня januára január",
            "feb february febr februar fév févr février febrero febbraio fevereiro fev februari февраля lutego"
            " şubat helmikuuta února februarie"
            " φεβρουαρίου лютого februára február",
            "mar march mär märz mars marzo março maart marts марта marca mart maaliskuuta března maret martie"
            " μαρτίου березня március márc",
            "apr april avr avril abril abr aprile апреля kwietnia nisan huhtikuuta dubna aprilie"
            " απριλίου квітня apríla április ápr",
            "may mai mayo maggio mag maio mei maj мая maja mayıs toukokuuta května"
            " μαΐου травня mája május máj",
            "jun june juin juni junio giugno giu junho июня czerwca haziran kesäkuuta června iunie"
            " ιουνίου червня júna június jún",
            "jul july juil juillet juli julio luglio lug julho июля lipca temmuz heinäkuuta července iulie"
            " ιουλίου липня júla július júl",
            "aug august août agosto ago augustus augusti августа sierpnia ağustos elokuuta srpna agustus"
            " αυγούστου серпня augusztus",
            "sep sept september septembre septiembre settembre set setembro сентября września eylül syyskuuta"
            " září septembrie"
            " σεπτεμβρίου вересня septembra szeptember szept",
            "oct october okt oktober octobre octubre ottobre ott outubro out октября października ekim lokakuuta"
            " října octombrie"
            " οκτωβρίου жовтня októbra október",
            "nov november novembre noviembre novembro ноября listopada kasım marraskuuta listopadu noiembrie"
            " νοεμβρίου листопада novembra",
            "dec december dez dezember déc décembre diciembre dic dicembre dezembro desember декабря grudnia"
            " aralık joulukuuta prosince decembrie"
            " δεκεμβρίου грудня decembra",
        ),
        1,
    )
    for name in names.split()
}
#: The Gregorian months in Arabic (Egyptian and Gulf, Maghreb and Levantine names of one
#: word) and Persian.
MONTHS.update(
    {
        name: number
        for number, names in enumerate(
            (
            "يناير جانفي ژانویه",
            "فبراير فيفري شباط فوریه",
            "مارس آذار",
            "أبريل ابريل إبريل نيسان أفريل آوریل",
            "مايو ماي أيار",
            "يونيو يونيه حزيران جوان ژوئن",
            "يوليو يوليه تموز جويلية ژوئیه جولای",
            "أغسطس اغسطس أوت اوت آگوست",
            "سبتمبر أيلول سپتامبر",
            "أكتوبر اكتوبر اکتبر",
            "نوفمبر نوامبر",
            "ديسمبر دجنبر دسامبر",
            ),
            1,
        )
        for name in names.split()
    }
)


#: Words that make a byline fragment a job title, a role or a date rather than a name
#: (whole words, in any case), and the phrases that do.
NOT_A_NAME_WORDS = frozenset(
    """by reporter reporters correspondent correspondents columnist columnists journalist journalists learn
    about our policy policies updated published posted minute minutes read ago comment comments share follow
    admin administrator guest anonymous unknown photo photos image getty reuters afp press copyright senior
    chief director manager professor founder ceo bio written name author authors undefined null none
    webmaster authorized dealer says wrote reply replies member moderator since joined verified buyer from
    insights login logout register account hi hello welcome january february march april june july august
    september october november december feb apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun
    monday tuesday wednesday thursday friday saturday sunday""".split()
)


NOT_A_NAME_PHRASES = ("all rights", "head of", "log in", "log out", "sign in", "sign up", "view all")


CREDENTIALS = frozenset("PhD Ph.D MD M.D DO RN Jr Sr II III Esq MBA MSc BSc".split())


#: The words of a job written after a name ("Staff Writer", "Contributing Editor").  Not
#: read alone: a byline "Podium Staff" or "The Currency editors" is the author the labels
#: of the dev pages give.
ROLE_WORDS = frozenset(
    "staff writer writers editor editors contributor contributing associate assistant deputy executive "
    "managing special freelance general features news sports business".split()
)


#: The job words that end a byline written without a comma ("Jane Doe Staff Writer").
JOB_TAIL = frozenset("writer writers editor editors contributor reporter correspondent columnist".split())


JOB_WORDS = ROLE_WORDS | JOB_TAIL | {"senior", "chief"}


COMPANY_SUFFIXES = frozenset("inc ltd llc gmbh corp co plc ag sa".split())


NAME_PARTICLES = frozenset("de da di del der den van von la le du dos bin al".split())
