"""Downloads of the materials pages: e-books, the whitepaper, the media kit
and the logos. Called by generate.py; writes under assets/static/uploads/.

    uploads/materialy/*.pdf    Polish e-books, whitepaper, press kit
    uploads/materials/*.pdf    English e-books, whitepaper, press kit
    uploads/media/             logo files (SVG, PNG) and two ZIP archives:
                               botforge-logotypy.zip (the logos) and
                               botforge-media-kit.zip (press kits + logos)

The PNG logos are rasterised here from the same geometry as the SVG mark
(templates/partials/logo.html), with the standard library only.
"""

import io
import os
import struct
import zipfile
import zlib

from pdfdoc import write_pdf

STAMP = (2025, 9, 1, 0, 0, 0)  # fixed ZIP timestamps: the same sources give the same bytes

# ---------------------------------------------------------------- e-books

EBOOKS = {
    "pl": [
        ("ebook-chatbot-w-rekrutacji.pdf", "Chatbot w rekrutacji. Przewodnik dla działów HR", [
            "Praktyczny przewodnik BotForge dla rekruterów i menedżerów HR, którzy planują wdrożenie "
            "chatbota rekrutacyjnego. Opisujemy, jak przygotować bazę wiedzy i pytania selekcyjne, jak "
            "przedstawić bota kandydatom i jak mierzyć efekty.",
            "## 1. Po co chatbot w rekrutacji",
            "Kandydaci zadają te same pytania: o wynagrodzenie, grafik, dojazd i etapy procesu. Bot "
            "odpowiada na nie od razu, o każdej porze, a rekruterzy zyskują czas na rozmowy z najlepszymi "
            "osobami. W naszych wdrożeniach bot oszczędza do 37% czasu rekruterów, czyli około 75 godzin "
            "miesięcznie w zespole prowadzącym kilkadziesiąt rekrutacji.",
            "## 2. Baza wiedzy",
            "- Zbierz pytania kandydatów z ostatnich trzech miesięcy: z maili, telefonów i formularzy.",
            "- Dla każdego pytania wskaż właściciela odpowiedzi i datę przeglądu.",
            "- Pisz krótko: jedna odpowiedź to jedna myśl i link do szczegółów.",
            "## 3. Pytania selekcyjne",
            "Ogranicz się do pytań, które naprawdę rozstrzygają o dalszym etapie: dostępność, wymagane "
            "uprawnienia, lokalizacja. Średnio wystarcza 9 pytań na kandydata, a rozmowa trwa około "
            "3,5 minuty. Test kandydata lub quiz firmowy nie powinien mieć więcej niż 10 pytań.",
            "## 4. Jak przedstawić bota kandydatom",
            "Bot przedstawia się jako asystent rekrutacji, a nie jako człowiek. Na każdym etapie kandydat "
            "może poprosić o kontakt z rekruterem. Informacja o przetwarzaniu danych osobowych pojawia się "
            "przed pierwszym pytaniem selekcyjnym.",
            "## 5. Co mierzyć",
            "- liczbę rozmów i odsetek pytań, na które bot odpowiedział samodzielnie,",
            "- liczbę umówionych spotkań i czas od aplikacji do spotkania,",
            "- ocenę kandydatów (NPS) – w naszych wdrożeniach HireBot uzyskuje średnio 7,8.",
            "## Lista kontrolna na pierwsze 2 tygodnie",
            "- Dzień 1–3: baza wiedzy i pytania selekcyjne.",
            "- Dzień 4–7: konfiguracja kanałów (strona kariery, Messenger, WhatsApp) i testy w zespole.",
            "- Dzień 8–10: pilotaż na jednej rekrutacji.",
            "- Dzień 11–14: poprawki scenariusza i uruchomienie na kolejnych ogłoszeniach.",
        ]),
        ("ebook-komunikacja-wewnetrzna-z-botem.pdf", "Komunikacja wewnętrzna z botem", [
            "Poradnik BotForge dla zespołów HR i komunikacji wewnętrznej: od wyboru kanału, przez "
            "właścicieli odpowiedzi, po pilotaż w jednym dziale.",
            "## 1. Wybierz kanał, z którego pracownicy już korzystają",
            "Bot powinien być tam, gdzie toczy się codzienna praca: w Microsoft Teams, Slacku albo w "
            "aplikacji mobilnej dla pracowników bez służbowego komputera. Nowa aplikacja tylko dla bota "
            "rzadko się przyjmuje.",
            "## 2. Zbierz pytania i wyznacz właścicieli odpowiedzi",
            "Najczęstsze tematy to urlopy, benefity, delegacje, sprzęt i procedury BHP. Każdy temat ma "
            "właściciela, który odpowiada za aktualność odpowiedzi i raz w miesiącu przegląda statystyki.",
            "## 3. Zastąp druk i gazetki",
            "Instrukcje i ogłoszenia, które trafiały na tablice i do gazetek, bot podaje na żądanie. W "
            "jednym z wdrożeń liczba drukowanych materiałów spadła o 73%.",
            "## 4. Pilotaż w jednym dziale",
            "- Wybierz dział, który zadaje dużo powtarzalnych pytań.",
            "- Uruchom bota na 4 tygodnie i zbieraj pytania, na które nie znał odpowiedzi.",
            "- Co tydzień uzupełniaj bazę wiedzy i sprawdzaj ocenę pracowników.",
            "## 5. Co mierzyć",
            "Liczbę pytań dziennie (w dużych firmach nawet 170), odsetek pytań obsłużonych bez udziału "
            "HR i ocenę pracowników. IntraBot uzyskuje w naszych wdrożeniach średnio NPS 8,7.",
        ]),
        ("ebook-chatbot-w-obsludze-klienta.pdf", "Chatbot w obsłudze klienta bez frustracji", [
            "Poradnik BotForge o tym, które pytania klientów automatyzować, jak przekazywać rozmowy "
            "konsultantom i co mierzyć po uruchomieniu bota.",
            "## 1. Które pytania automatyzować",
            "Zacznij od pytań częstych i przewidywalnych: status zamówienia, godziny otwarcia, zwroty, "
            "reklamacje, zmiana danych. Pytania rzadkie i złożone zostaw konsultantom.",
            "## 2. Przekazanie rozmowy konsultantowi",
            "- Klient w każdej chwili może poprosić o rozmowę z człowiekiem.",
            "- Konsultant widzi całą dotychczasową rozmowę i nie zadaje tych samych pytań.",
            "- Poza godzinami pracy bot przyjmuje zgłoszenie i podaje, kiedy klient dostanie odpowiedź.",
            "## 3. Ton i język",
            "Bot odpowiada krótko i rozumie odmianę, literówki oraz potoczny język. Odpowiedź w około "
            "3 sekundy to standard, którego klienci oczekują od kanałów czatowych.",
            "## 4. Co mierzyć",
            "Odsetek poprawnych odpowiedzi (w naszych wdrożeniach około 82%), czas odpowiedzi, odsetek "
            "rozmów przekazanych konsultantom i ocenę klientów. Zwrot z inwestycji warto liczyć po "
            "3 miesiącach, gdy bot ma już za sobą pierwsze poprawki scenariusza.",
        ]),
    ],
    "en": [
        ("ebook-recruitment-chatbot.pdf", "Chatbots in recruitment. A guide for HR teams", [
            "A practical BotForge guide for recruiters and HR managers planning to roll out a "
            "recruitment chatbot: how to prepare the knowledge base and screening questions, how to "
            "introduce the bot to candidates and how to measure the results.",
            "## 1. Why a chatbot in recruitment",
            "Candidates ask the same questions about pay, shifts, commuting and the stages of the "
            "process. A bot answers them at once, at any hour, and recruiters gain time for talking to "
            "the best people. In our rollouts the bot saves up to 37% of recruiters' time, about 75 "
            "hours a month in a team running several dozen recruitments.",
            "## 2. The knowledge base",
            "- Collect candidates' questions from the last three months: emails, calls and forms.",
            "- For every question name an owner of the answer and a review date.",
            "- Keep it short: one answer, one idea and a link to the details.",
            "## 3. Screening questions",
            "Ask only what really decides the next stage: availability, required licences, location. "
            "On average 9 questions per candidate are enough and a conversation takes about 3.5 "
            "minutes. A candidate test or company quiz should have no more than 10 questions.",
            "## 4. Introducing the bot to candidates",
            "The bot introduces itself as a recruitment assistant, not as a person. At every step the "
            "candidate can ask to talk to a recruiter. The personal data notice appears before the "
            "first screening question.",
            "## 5. What to measure",
            "- the number of conversations and the share of questions the bot answered on its own,",
            "- the number of interviews booked and the time from application to interview,",
            "- candidate satisfaction (NPS): HireBot averages 7.8 in our rollouts.",
            "## A checklist for the first 2 weeks",
            "- Days 1-3: knowledge base and screening questions.",
            "- Days 4-7: channels (careers page, Messenger, WhatsApp) and tests within the team.",
            "- Days 8-10: a pilot on one recruitment.",
            "- Days 11-14: scenario fixes and rollout to further job ads.",
        ]),
        ("ebook-internal-communication-with-a-bot.pdf", "Internal communication with a bot", [
            "A BotForge guide for HR and internal communication teams: from choosing the channel and "
            "the owners of answers to a pilot in one department.",
            "## 1. Choose a channel people already use",
            "The bot belongs where daily work happens: in Microsoft Teams, in Slack or in a mobile app "
            "for staff without a work computer. A new app just for the bot is rarely adopted.",
            "## 2. Collect the questions and name the owners of answers",
            "The most common topics are leave, benefits, business travel, equipment and health and "
            "safety procedures. Each topic has an owner who keeps the answers current and reviews the "
            "statistics once a month.",
            "## 3. Replace print and newsletters",
            "Instructions and announcements that used to go on notice boards and into newsletters are "
            "given by the bot on request. In one rollout the number of printed materials fell by 73%.",
            "## 4. A pilot in one department",
            "- Pick a department that asks many repetitive questions.",
            "- Run the bot for 4 weeks and collect the questions it could not answer.",
            "- Every week extend the knowledge base and check employee ratings.",
            "## 5. What to measure",
            "Questions per day (up to 170 in large companies), the share handled without HR and "
            "employee ratings. IntraBot averages an NPS of 8.7 in our rollouts.",
        ]),
        ("ebook-chatbot-in-customer-service.pdf", "Customer-service chatbots without frustration", [
            "A BotForge guide on which customer questions to automate, how to hand conversations over "
            "to agents and what to measure after launch.",
            "## 1. Which questions to automate",
            "Start with frequent, predictable questions: order status, opening hours, returns, "
            "complaints, changes of details. Leave rare and complex questions to agents.",
            "## 2. Handing over to an agent",
            "- The customer can ask for a person at any moment.",
            "- The agent sees the whole conversation and does not repeat the questions.",
            "- Outside working hours the bot takes the request and says when the customer will hear back.",
            "## 3. Tone and language",
            "The bot answers briefly and understands typos and colloquial language. An answer in about "
            "3 seconds is what customers expect from chat channels.",
            "## 4. What to measure",
            "The share of correct answers (about 82% in our rollouts), response time, the share of "
            "conversations handed over to agents and customer ratings. Measure the return on "
            "investment after 3 months, once the first scenario fixes are done.",
        ]),
    ],
}

WHITEPAPER = {
    "pl": ("whitepaper-platforma-botforge.pdf", "Whitepaper: platforma BotForge", [
        "Opis techniczny platformy BotForge dla działów IT, architektów i osób odpowiedzialnych za "
        "bezpieczeństwo, które oceniają platformę przed wdrożeniem.",
        "## 1. Architektura",
        "Scenariusz rozmowy składa się z gotowych bloków konwersacyjnych (pytanie, odpowiedź, wybór, "
        "formularz) i bloków akcji, które wywołują systemy firmy: REST API, bazy danych, kalendarze i "
        "systemy ATS. Warstwa przetwarzania języka naturalnego rozpoznaje intencje i dane w "
        "wypowiedziach, a automatyzacja procesów (RPA) wykonuje powtarzalne czynności w systemach bez API.",
        "## 2. Kanały",
        "Ten sam scenariusz działa w komunikatorach, w Slacku i Microsoft Teams, w WhatsAppie, na "
        "stronie internetowej (widżet) i w aplikacjach natywnych. Boty dziedzinowe są niezależne od "
        "zewnętrznych komunikatorów i mogą działać wyłącznie jako widżet.",
        "## 3. Panel administracyjny",
        "W panelu administratorzy zarządzają bazą wiedzy i scenariuszami, a w botach rekrutacyjnych "
        "także rekrutacjami. Statystyki pokazują liczbę rozmów, odsetek rozpoznanych pytań i oceny "
        "użytkowników.",
        "## 4. Bezpieczeństwo",
        "- Połączenia szyfrowane (TLS 1.2 lub nowszy).",
        "- Webhooki podpisywane kluczem HMAC i weryfikowane po stronie odbiorcy.",
        "- Logowanie administratorów przez dostawcę tożsamości klienta (SSO).",
        "- Sekrety przechowywane poza konfiguracją scenariuszy.",
        "## 5. Modele wdrożenia",
        "Model hostowany (SaaS) w chmurze, instalacja on premise w infrastrukturze klienta oraz opcja "
        "white label dla partnerów, którzy oferują platformę pod własną marką. Przeciętna konfiguracja "
        "trwa około 8 godzin, a typowe wdrożenie – 2 tygodnie.",
        "## 6. Języki",
        "Boty rozmawiają po polsku i po angielsku; wersje niemiecka i ukraińska są w przygotowaniu.",
    ]),
    "en": ("whitepaper-botforge-platform.pdf", "Whitepaper: the BotForge platform", [
        "A technical description of the BotForge platform for IT departments, architects and "
        "security teams evaluating it before a rollout.",
        "## 1. Architecture",
        "A conversation scenario is built from ready-made conversation blocks (question, answer, "
        "choice, form) and action blocks that call the company's systems: REST APIs, databases, "
        "calendars and applicant tracking systems. The natural language processing layer recognises "
        "intents and data in messages, and robotic process automation (RPA) performs repetitive "
        "steps in systems without an API.",
        "## 2. Channels",
        "The same scenario runs in messengers, Slack and Microsoft Teams, WhatsApp, on a website "
        "(widget) and in native apps. Domain bots are independent of external messengers and can run "
        "as a widget only.",
        "## 3. Administration panel",
        "In the panel administrators manage the knowledge base and the scenarios, and in recruitment "
        "bots also the recruitments. Statistics show the number of conversations, the share of "
        "recognised questions and user ratings.",
        "## 4. Security",
        "- Encrypted connections (TLS 1.2 or later).",
        "- Webhooks signed with an HMAC key and verified by the receiver.",
        "- Administrator sign-in through the client's identity provider (SSO).",
        "- Secrets stored outside the scenario configuration.",
        "## 5. Deployment models",
        "Hosted (SaaS) in the cloud, on premise in the client's infrastructure, and a white-label "
        "option for partners who offer the platform under their own brand. An average setup takes "
        "about 8 hours and a typical rollout 2 weeks.",
        "## 6. Languages",
        "The bots speak Polish and English; German and Ukrainian are in preparation.",
    ]),
}

PRESS = {
    "pl": ("press-kit-botforge.pdf", "BotForge – informacja dla mediów", [
        "BotForge S.A. to warszawska firma technologiczna, która tworzy chatboty i rozwiązania do "
        "automatyzacji procesów biznesowych z wykorzystaniem sztucznej inteligencji, przetwarzania "
        "języka naturalnego i RPA.",
        "## Produkty",
        "- HireBot – chatbot rekrutacyjny z modułem pytań i odpowiedzi oraz panelem menedżera rekrutacji.",
        "- IntraBot – bot do komunikacji wewnętrznej z panelem administracyjnym.",
        "- CustomBot – bot budowany na platformie BotForge pod potrzeby klienta.",
        "## Liczby",
        "- Ponad 30 specjalistów, w tym 9 badaczy.",
        "- Do 37% czasu rekruterów oszczędzonego dzięki HireBotowi.",
        "- Zwrot z inwestycji w 3 miesiące, wdrożenie w 2 tygodnie.",
        "## Kontakt dla mediów",
        "media@botforge.pl, tel. +48 22 123 45 67. Logotypy znajdują się w tym samym archiwum, w "
        "folderze logotypy.",
    ]),
    "en": ("press-kit-botforge-en.pdf", "BotForge – press information", [
        "BotForge S.A. is a Warsaw technology company that builds chatbots and business process "
        "automation using artificial intelligence, natural language processing and RPA.",
        "## Products",
        "- HireBot – a recruitment chatbot with a Q&A module and a recruitment manager panel.",
        "- IntraBot – an internal communication bot with an administration panel.",
        "- CustomBot – a bot built on the BotForge platform for the client's needs.",
        "## Figures",
        "- Over 30 specialists, including 9 researchers.",
        "- Up to 37% of recruiters' time saved with HireBot.",
        "- Return on investment in 3 months, rollout in 2 weeks.",
        "## Media contact",
        "media@botforge.pl, phone +48 22 123 45 67. The logos are in the same archive, in the "
        "logotypy folder.",
    ]),
}

# ---------------------------------------------------------------- logos

# The mark of templates/partials/logo.html, on a 40 x 40 grid.
_BUBBLE = "M10.5 13.5a4.5 4.5 0 0 1 4.5-4.5h10a4.5 4.5 0 0 1 4.5 4.5v7a4.5 4.5 0 0 1-4.5 4.5h-5.2l-5.3 4.3v-4.4a4.5 4.5 0 0 1-4-4.4z"
_SPARK = "M31.5 6.5l.9 2.1 2.1.9-2.1.9-.9 2.1-.9-2.1-2.1-.9 2.1-.9z"
_SPARK_PTS = [(31.5, 6.5), (32.4, 8.6), (34.5, 9.5), (32.4, 10.4), (31.5, 12.5), (30.6, 10.4),
              (28.5, 9.5), (30.6, 8.6)]

# variant: (tile, bubble, eyes, spark); "grad" is the violet-to-cyan gradient.
VARIANTS = {
    "kolor": ("grad", "#FFFFFF", "#1E1B4B", "#A5F3FC"),
    "mono": ("#1E1B4B", "#FFFFFF", "#1E1B4B", "#FFFFFF"),
    "negatyw": ("#FFFFFF", "#1E1B4B", "#FFFFFF", "#1E1B4B"),
}


def logo_svg(variant, wordmark):
    tile, bubble, eyes, spark = VARIANTS[variant]
    defs, fill = "", tile
    if tile == "grad":
        defs = ('<defs><linearGradient id="g" x1="0" y1="0" x2="40" y2="40" '
                'gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#6D28D9"/>'
                '<stop offset="1" stop-color="#06B6D4"/></linearGradient></defs>')
        fill = "url(#g)"
    mark = ('<rect width="40" height="40" rx="11" fill="%s"/><path d="%s" fill="%s"/>'
            '<circle cx="16.3" cy="17" r="1.9" fill="%s"/><circle cx="23.7" cy="17" r="1.9" fill="%s"/>'
            '<path d="%s" fill="%s"/>' % (fill, _BUBBLE, bubble, eyes, eyes, _SPARK, spark))
    if not wordmark:
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="512" height="512">'
                '<title>BotForge</title>%s%s</svg>\n' % (defs, mark))
    ink = {"kolor": "#1E1B4B", "mono": "#1E1B4B", "negatyw": "#FFFFFF"}[variant]
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40" width="600" height="120">'
            '<title>BotForge</title>%s%s<text x="50" y="28.5" fill="%s" font-family="Inter, '
            'Segoe UI, Helvetica, Arial, sans-serif" font-size="24" font-weight="700" '
            'letter-spacing="-0.5">BotForge</text></svg>\n' % (defs, mark, ink))


def _hex(c):
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def _in_round_rect(x, y, x0, y0, x1, y1, r):
    if x < x0 or x > x1 or y < y0 or y > y1:
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _in_poly(x, y, pts):
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _sample(x, y, variant):
    """The colour (r, g, b, a) of the mark at grid point (x, y), or None."""
    tile, bubble, eyes, spark = VARIANTS[variant]
    if not _in_round_rect(x, y, 0, 0, 40, 40, 11):
        return None
    if (x - 16.3) ** 2 + (y - 17) ** 2 <= 1.9 ** 2 or (x - 23.7) ** 2 + (y - 17) ** 2 <= 1.9 ** 2:
        return _hex(eyes)
    if _in_round_rect(x, y, 10.5, 9, 29.5, 25, 4.5) or _in_poly(x, y, [(14.5, 24), (19.8, 25), (14.5, 29.3)]):
        return _hex(bubble)
    if _in_poly(x, y, _SPARK_PTS):
        return _hex(spark)
    if tile == "grad":
        t = (x + y) / 80.0
        a, b = _hex("#6D28D9"), _hex("#06B6D4")
        return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))
    return _hex(tile)


def logo_png(variant, size=512, ss=2):
    """An RGBA PNG of the mark, anti-aliased by ss x ss supersampling."""
    rows = []
    step = 40.0 / (size * ss)
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            r = g = b = a = 0
            for sy in range(ss):
                y = (py * ss + sy + 0.5) * step
                for sx in range(ss):
                    c = _sample((px * ss + sx + 0.5) * step, y, variant)
                    if c:
                        r += c[0]
                        g += c[1]
                        b += c[2]
                        a += 1
            n = ss * ss
            if a:
                row += bytes((r // a, g // a, b // a, 255 * a // n))
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


LOGO_README = """Logotypy BotForge / BotForge logos

botforge-logo-kolor.svg     logotyp w kolorze (na jasne tło) / colour logo (light backgrounds)
botforge-logo-mono.svg      logotyp jednobarwny / single-colour logo
botforge-logo-negatyw.svg   logotyp w negatywie (na ciemne tło) / negative logo (dark backgrounds)
botforge-sygnet-*.svg       sam sygnet / the mark only
botforge-sygnet-*.png       sygnet 512 x 512 px, przezroczyste tło / 512 x 512 px, transparent

Zasady / Rules: zachowaj wokół logotypu margines równy 1/4 wysokości sygnetu; nie zmieniaj
kolorów, proporcji ani kroju; na zdjęciach używaj wersji w negatywie.
Keep clear space of 1/4 of the mark's height around the logo; do not change the colours,
proportions or typeface; on photographs use the negative version.
"""


def _zip(path, files):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def main(static):
    up = os.path.join(static, "uploads")
    folders = {"pl": os.path.join(up, "materialy"), "en": os.path.join(up, "materials")}
    for lang, books in EBOOKS.items():
        for name, title, blocks in books:
            write_pdf(os.path.join(folders[lang], name), title, blocks)
        name, title, blocks = WHITEPAPER[lang]
        write_pdf(os.path.join(folders[lang], name), title, blocks)
        name, title, blocks = PRESS[lang]
        write_pdf(os.path.join(folders[lang], name), title, blocks)

    media = os.path.join(up, "media")
    logos = []
    for variant in VARIANTS:
        for wordmark, stem in ((True, "botforge-logo-"), (False, "botforge-sygnet-")):
            name = stem + variant + ".svg"
            data = logo_svg(variant, wordmark).encode()
            _write(os.path.join(media, name), data)
            logos.append((name, data))
    for variant in ("kolor", "mono"):
        name = "botforge-sygnet-%s.png" % variant
        data = logo_png(variant)
        _write(os.path.join(media, name), data)
        logos.append((name, data))
    logos.append(("CZYTAJ-MNIE.txt", LOGO_README.encode()))
    _zip(os.path.join(media, "botforge-logotypy.zip"), logos)

    kit = [("botforge-media-kit/" + PRESS[lang][0], _read(os.path.join(folders[lang], PRESS[lang][0])))
           for lang in ("pl", "en")]
    kit += [("botforge-media-kit/logotypy/" + n, d) for n, d in logos]
    _zip(os.path.join(media, "botforge-media-kit.zip"), kit)
