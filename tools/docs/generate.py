#!/usr/bin/env python3
"""Generates the downloadable investor documents of the BotForge site.

    python3 tools/docs/generate.py          (from the repository root)

Writes small PDF 1.4, DOCX and XML files under assets/static/investor-docs/
and assets/static/uploads/, and the downloads of the materials pages (e-books,
whitepaper, media kit, logos) under assets/static/materialy/. BotForge S.A. is
sample content: the site says so once, in the footer's company block and the
investor pages' registration section, not inside each document. Its KRS, NIP,
REGON and ISIN are invented but valid in format and check digits
(sitetest/content_test.go computes them).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdfdoc import write_docx, write_pdf, write_xml  # noqa: E402
import materials  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STATIC = os.path.join(ROOT, "assets", "static")

CO_PL = ("BotForge S.A. z siedzibą w Warszawie, ul. Prosta 51, 00-838 Warszawa, KRS 0000712846, "
         "NIP 525-284-71-35, REGON 146382913, kapitał zakładowy 229 979,10 zł, wpłacony w całości.")
CO_EN = ("BotForge S.A., registered office in Warsaw, ul. Prosta 51, 00-838 Warsaw, Poland, "
         "KRS 0000712846, NIP 525-284-71-35, REGON 146382913, share capital PLN 229,979.10, "
         "fully paid.")
TRANSL = ("Convenience translation. In case of any discrepancy the Polish version prevails.")

SERIES_G_PL = [
    CO_PL,
    "## Podstawa emisji",
    "Nadzwyczajne Walne Zgromadzenie Spółki w dniu 26 maja 2025 r. podjęło uchwałę nr 4/2025 "
    "w sprawie podwyższenia kapitału zakładowego w drodze emisji akcji zwykłych na okaziciela "
    "serii G z zachowaniem prawa poboru dotychczasowych akcjonariuszy.",
    "## Warunki emisji",
    "- Rodzaj akcji: akcje zwykłe na okaziciela serii G.",
    "- Liczba akcji: nie mniej niż 1 i nie więcej niż 6 899 373 akcje.",
    "- Wartość nominalna: 0,10 zł za akcję. Cena emisyjna: 0,20 zł za akcję.",
    "- Podwyższenie kapitału zakładowego: o kwotę nie niższą niż 0,10 zł i nie wyższą niż 689 937,30 zł.",
    "- Prawo poboru: za każdą akcję posiadaną na koniec dnia prawa poboru przysługuje jedno prawo "
    "poboru; jedno prawo poboru uprawnia do objęcia 3 akcji serii G.",
    "- Zapisy dodatkowe: akcjonariusze, którzy w dniu prawa poboru posiadali akcje Spółki, mogą "
    "złożyć zapis dodatkowy na akcje w liczbie nieprzekraczającej wielkości emisji.",
    "## Harmonogram",
    "- Dzień prawa poboru: 30 czerwca 2025 r.",
    "- Przyjmowanie zapisów podstawowych i dodatkowych: od 15.07.2025 r. do 29.07.2025 r.",
    "- Ogłoszenie o przydziale akcji: 08.08.2025 r.",
    "- Jeżeli do dnia 13.08.2025 r. emisja akcji serii G nie zostanie zarejestrowana, subskrybenci "
    "zostają zwolnieni z zapisu, a wpłaty zostaną zwrócone bez odsetek i odszkodowań.",
    "## Zastrzeżenia",
    "Niniejsze ogłoszenie ma charakter informacyjny. Spółka nie publikuje prognoz wyników "
    "finansowych. Inwestowanie w akcje wiąże się z ryzykiem utraty części lub całości "
    "zainwestowanych środków.",
]

SERIES_G_EN = [
    CO_EN,
    "## Legal basis",
    "On 26 May 2025 the Extraordinary General Meeting of the Company adopted resolution no. 4/2025 "
    "on increasing the share capital through an issue of series G ordinary bearer shares with "
    "pre-emption rights of the existing shareholders.",
    "## Terms of the issue",
    "- Type of shares: series G ordinary bearer shares.",
    "- Number of shares: at least 1 and at most 6,899,373 shares.",
    "- Nominal value: PLN 0.10 per share. Issue price: PLN 0.20 per share.",
    "- Share capital increase: by not less than PLN 0.10 and not more than PLN 689,937.30.",
    "- Pre-emption rights: one pre-emption right for each share held at the end of the record date; "
    "each pre-emption right entitles its holder to subscribe for 3 series G shares.",
    "- Additional subscriptions: shareholders who held Company shares on the record date may place "
    "additional subscriptions for a number of shares not exceeding the size of the issue.",
    "## Timetable",
    "- Pre-emption record date: 30 June 2025.",
    "- Basic and additional subscriptions: from 15.07.2025 to 29.07.2025.",
    "- Announcement of the allotment: 08.08.2025.",
    "- If the issue of series G shares is not registered by 13.08.2025, subscribers are released "
    "from their subscriptions and payments are returned without interest or compensation.",
    "## Disclaimer",
    "This notice is for information only. The Company does not publish financial forecasts. "
    "Investing in shares involves the risk of losing part or all of the capital invested.",
    TRANSL,
]

SUBSCRIPTION_FORM = [
    "Formularz zapisu na akcje zwykłe na okaziciela serii G spółki BotForge S.A. o wartości "
    "nominalnej 0,10 zł każda, po cenie emisyjnej 0,20 zł za akcję.",
    "## Dane subskrybenta",
    "Imię i nazwisko / firma: ______________________________________________",
    "Adres zamieszkania / siedziba: ________________________________________",
    "PESEL / KRS lub inny numer identyfikacyjny: ___________________________",
    "Numer rachunku papierów wartościowych i nazwa biura maklerskiego: ______",
    "## Zapis",
    "Rodzaj zapisu (podstawowy / dodatkowy): _______________________________",
    "Liczba praw poboru, z których wykonywany jest zapis podstawowy: _______",
    "Liczba akcji serii G objętych zapisem (1 prawo poboru = 3 akcje): ______",
    "Kwota wpłaty (liczba akcji × 0,20 zł): ______________________ zł",
    "## Oświadczenia",
    "Oświadczam, że zapoznałem/zapoznałam się z treścią ogłoszenia o emisji akcji serii G i "
    "akceptuję warunki emisji, w tym terminy: zapisy od 15.07.2025 r. do 29.07.2025 r., "
    "przydział 08.08.2025 r. Wyrażam zgodę na przydzielenie mi mniejszej liczby akcji niż "
    "objęta zapisem albo nieprzydzielenie akcji w przypadkach przewidzianych w warunkach emisji.",
    "Data i podpis subskrybenta: ____________________   Podpis przyjmującego zapis: ____________",
]

RESOLUTION_G = [
    CO_PL,
    "Uchwała nr 4/2025 Nadzwyczajnego Walnego Zgromadzenia BotForge S.A. z dnia 26 maja 2025 r. "
    "w sprawie podwyższenia kapitału zakładowego w drodze emisji akcji serii G z zachowaniem "
    "prawa poboru oraz zmiany Statutu Spółki.",
    "§ 1. Podwyższa się kapitał zakładowy Spółki o kwotę nie niższą niż 0,10 zł i nie wyższą niż "
    "689 937,30 zł, w drodze emisji nie mniej niż 1 i nie więcej niż 6 899 373 akcji zwykłych na "
    "okaziciela serii G o wartości nominalnej 0,10 zł każda.",
    "§ 2. Cena emisyjna akcji serii G wynosi 0,20 zł za akcję. Akcje zostaną pokryte wkładami "
    "pieniężnymi wniesionymi przed rejestracją podwyższenia kapitału.",
    "§ 3. Dzień prawa poboru ustala się na 30 czerwca 2025 r. Za każdą akcję posiadaną na koniec "
    "dnia prawa poboru przysługuje jedno prawo poboru. Jedno prawo poboru uprawnia do objęcia "
    "3 akcji serii G. Akcjonariuszom przysługuje prawo zapisu dodatkowego do wielkości emisji.",
    "§ 4. Akcje serii G uczestniczą w dywidendzie od wypłat z zysku za rok obrotowy 2025. "
    "Upoważnia się Zarząd do ustalenia szczegółowego harmonogramu oferty i ubiegania się o "
    "wprowadzenie akcji serii G do alternatywnego systemu obrotu.",
    "§ 5. Uchwała wchodzi w życie z chwilą podjęcia. W głosowaniu jawnym oddano 1 402 118 ważnych "
    "głosów z 1 402 118 akcji (60,97% kapitału zakładowego): za – 1 402 118, przeciw – 0, "
    "wstrzymujących się – 0.",
]

STATUT_PL = [
    CO_PL,
    "Tekst jednolity Statutu uwzględniający zmiany uchwalone do dnia 26 maja 2025 r.",
    "## I. Postanowienia ogólne",
    "§ 1. Firma Spółki brzmi: BotForge Spółka Akcyjna. Spółka może używać skrótu BotForge S.A. "
    "Siedzibą Spółki jest Warszawa. Czas trwania Spółki jest nieoznaczony.",
    "§ 2. Przedmiotem działalności Spółki jest w szczególności działalność związana z "
    "oprogramowaniem (PKD 62.01.Z), doradztwo w zakresie informatyki (PKD 62.02.Z) oraz badania "
    "naukowe i prace rozwojowe w dziedzinie nauk technicznych (PKD 72.19.Z).",
    "## II. Kapitał zakładowy",
    "§ 3. Kapitał zakładowy Spółki wynosi 229 979,10 zł i dzieli się na 2 299 791 akcji zwykłych "
    "na okaziciela o wartości nominalnej 0,10 zł każda: 1 000 000 akcji serii A, 75 000 akcji "
    "serii B, 38 791 akcji serii C, 36 000 akcji serii D, 500 000 akcji serii E i 650 000 akcji "
    "serii F.",
    "§ 4. Kapitał zakładowy może zostać podwyższony w drodze emisji nowych akcji lub "
    "podwyższenia wartości nominalnej akcji dotychczasowych.",
    "## III. Organy Spółki",
    "§ 5. Organami Spółki są: Walne Zgromadzenie, Rada Nadzorcza i Zarząd.",
    "§ 6. Zarząd składa się z od jednego do trzech członków powoływanych przez Radę Nadzorczą na "
    "wspólną pięcioletnią kadencję. Do składania oświadczeń w imieniu Spółki uprawniony jest "
    "Prezes Zarządu samodzielnie albo dwóch członków Zarządu łącznie.",
    "§ 7. Rada Nadzorcza składa się z pięciu do siedmiu członków powoływanych przez Walne "
    "Zgromadzenie na wspólną pięcioletnią kadencję.",
    "## IV. Postanowienia końcowe",
    "§ 8. Rokiem obrotowym Spółki jest rok kalendarzowy. Spółka zamieszcza ogłoszenia w "
    "Monitorze Sądowym i Gospodarczym, o ile przepisy prawa tego wymagają.",
]

STATUT_EN = [
    CO_EN,
    "Consolidated text of the Articles of Association including amendments adopted up to 26 May 2025.",
    "## I. General provisions",
    "§ 1. The Company's name is BotForge Spółka Akcyjna; it may use the abbreviation BotForge S.A. "
    "The registered office is in Warsaw. The Company is established for an indefinite period.",
    "§ 2. The Company's business includes software development (PKD 62.01.Z), IT consultancy "
    "(PKD 62.02.Z) and research and development in engineering sciences (PKD 72.19.Z).",
    "## II. Share capital",
    "§ 3. The share capital is PLN 229,979.10, divided into 2,299,791 ordinary bearer shares with "
    "a nominal value of PLN 0.10 each: 1,000,000 series A, 75,000 series B, 38,791 series C, "
    "36,000 series D, 500,000 series E and 650,000 series F shares.",
    "## III. Governing bodies",
    "§ 5. The governing bodies are the General Meeting, the Supervisory Board and the Management Board.",
    "§ 6. The Management Board has one to three members appointed by the Supervisory Board for a "
    "joint five-year term. The President acting alone or two members acting jointly represent the Company.",
    "§ 7. The Supervisory Board has five to seven members appointed by the General Meeting for a "
    "joint five-year term.",
    "## IV. Final provisions",
    "§ 8. The financial year is the calendar year.",
    TRANSL,
]

RN_BYLAWS = [
    CO_PL,
    "Regulamin Rady Nadzorczej przyjęty uchwałą Walnego Zgromadzenia nr 12/2024 z dnia 27 czerwca 2024 r.",
    "§ 1. Rada Nadzorcza sprawuje stały nadzór nad działalnością Spółki we wszystkich dziedzinach "
    "jej działalności, w szczególności ocenia sprawozdanie finansowe i sprawozdanie Zarządu.",
    "§ 2. Posiedzenia Rady odbywają się nie rzadziej niż raz na kwartał. Zwołuje je Przewodniczący "
    "z własnej inicjatywy lub na wniosek członka Rady albo Zarządu, co najmniej 7 dni przed terminem.",
    "§ 3. Uchwały zapadają bezwzględną większością głosów w obecności co najmniej połowy członków. "
    "Dopuszcza się udział w posiedzeniu przy użyciu środków komunikacji elektronicznej.",
    "§ 4. Członek Rady informuje Radę o konflikcie interesów i powstrzymuje się od głosowania w "
    "sprawach, w których może on wystąpić.",
    "§ 5. Z posiedzeń sporządza się protokoły podpisywane przez obecnych członków Rady.",
]

ZARZAD_BYLAWS = [
    CO_PL,
    "Regulamin Zarządu zatwierdzony uchwałą Rady Nadzorczej nr 3/2024 z dnia 15 lipca 2024 r.",
    "§ 1. Zarząd prowadzi sprawy Spółki i reprezentuje ją na zewnątrz. Członkowie Zarządu "
    "odpowiadają za obszary: zarządzanie i relacje inwestorskie, technologię i badania, finanse.",
    "§ 2. Posiedzenia Zarządu odbywają się co najmniej raz w tygodniu. Uchwały zapadają zwykłą "
    "większością głosów; w razie równości głosów decyduje głos Prezesa Zarządu.",
    "§ 3. Zaciągnięcie zobowiązania o wartości przekraczającej 1 000 000 zł wymaga uchwały "
    "Zarządu i zgody Rady Nadzorczej.",
    "§ 4. Zarząd zapewnia wykonywanie obowiązków informacyjnych w systemach EBI i ESPI.",
]

POLICY_PL = [
    CO_PL,
    "Polityka informacyjna Spółki określa zasady komunikacji z inwestorami, mediami i rynkiem.",
    "## Zasady",
    "- Spółka przekazuje informacje poufne w systemie ESPI, a informacje bieżące i okresowe "
    "wymagane regulacjami alternatywnego systemu obrotu w systemie EBI.",
    "- Raporty publikowane są także na stronie internetowej w sekcji Dla inwestorów, w języku polskim; "
    "wybrane treści udostępniane są w języku angielskim.",
    "- Spółka nie publikuje prognoz wyników finansowych.",
    "- Kalendarz raportów okresowych ogłaszany jest na początku każdego roku obrotowego.",
    "## Kontakt dla inwestorów",
    "Relacje inwestorskie: inwestorzy@botforge.pl. Odpowiadamy na pytania w ciągu 5 dni roboczych, "
    "z poszanowaniem zasady równego dostępu do informacji.",
]

POLICY_EN = [
    CO_EN,
    "The disclosure policy sets out how the Company communicates with investors, the media and the market.",
    "## Principles",
    "- Inside information is published in the ESPI system; current and periodic information "
    "required by the alternative trading system rules is published in the EBI system.",
    "- Reports are also published on the website in the Investors section in Polish; selected "
    "content is available in English.",
    "- The Company does not publish financial forecasts.",
    "- The schedule of periodic reports is announced at the beginning of each financial year.",
    "## Investor contact",
    "Investor relations: inwestorzy@botforge.pl. We answer within 5 working days, observing the "
    "principle of equal access to information.",
    TRANSL,
]

ANNUAL_PL = [
    CO_PL,
    "Raport roczny za rok obrotowy 2024 (od 1 stycznia do 31 grudnia 2024 r.).",
    "## List Prezesa Zarządu",
    "Rok 2024 był dla BotForge rokiem porządkowania oferty wokół trzech produktów: HireBot, "
    "IntraBot i CustomBot. Zakończyliśmy wdrożenie modułu pytań i odpowiedzi w nowej wersji "
    "silnika NLP oraz rozbudowaliśmy panel administracyjny o statystyki rozmów.",
    "## Wybrane dane finansowe (w tys. zł)",
    "- Przychody netto ze sprzedaży: 4 862 (2023: 3 915).",
    "- Zysk (strata) z działalności operacyjnej: -214 (2023: -608).",
    "- Zysk (strata) netto: -241 (2023: -633).",
    "- Kapitał własny na koniec roku: 3 127 (2023: 3 368).",
    "- Środki pieniężne na koniec roku: 1 046 (2023: 1 392).",
    "## Zawartość raportu",
    "Raport obejmuje sprawozdanie finansowe, sprawozdanie Zarządu z działalności, sprawozdanie "
    "biegłego rewidenta z badania oraz oświadczenia Zarządu. Sprawozdanie finansowe w formacie "
    "XML udostępniono w osobnym pliku.",
]

ANNUAL_EN = [
    CO_EN,
    "Summary of the annual report for the financial year 2024 (1 January to 31 December 2024).",
    "## Letter from the President of the Management Board",
    "In 2024 BotForge organised its offer around three products: HireBot, IntraBot and CustomBot. "
    "We completed the rollout of the questions-and-answers module on the new version of the NLP "
    "engine and extended the administration panel with conversation statistics.",
    "## Selected financial data (PLN thousand)",
    "- Net revenue from sales: 4,862 (2023: 3,915).",
    "- Operating profit (loss): -214 (2023: -608).",
    "- Net profit (loss): -241 (2023: -633).",
    "- Equity at year end: 3,127 (2023: 3,368).",
    "- Cash at year end: 1,046 (2023: 1,392).",
    "The full annual report, including the auditor's report, is available in Polish.",
    TRANSL,
]


def quarterly(q, lang):
    data = {
        1: ("I kwartał 2025 r.", "Q1 2025", "1 184", "1,184", "1 002", "1,002", "-96", "-96", "-104", "-104",
            "podpisanie umowy na rozwój chatbota o wartości 1 240 000 zł netto oraz wybór oferty "
            "Spółki w postępowaniu o udzielenie zamówienia publicznego",
            "signing a chatbot development contract worth PLN 1,240,000 net and the selection of "
            "the Company's bid in a public procurement procedure"),
        2: ("II kwartał 2025 r.", "Q2 2025", "1 327", "1,327", "1 088", "1,088", "18", "18", "9", "9",
            "podpisanie umowy o dofinansowanie projektu badawczo-rozwojowego, podjęcie uchwały o "
            "emisji akcji serii G oraz powołanie nowego członka Rady Nadzorczej",
            "signing the grant agreement for an R&D project, the resolution on the series G share "
            "issue and the appointment of a new Supervisory Board member"),
    }[q]
    if lang == "pl":
        return [CO_PL,
                "Raport kwartalny za %s, sporządzony zgodnie z regulacjami alternatywnego systemu obrotu." % data[0],
                "## Wybrane dane finansowe (w tys. zł)",
                "- Przychody netto ze sprzedaży: %s (analogiczny okres 2024: %s)." % (data[2], data[4]),
                "- Zysk (strata) z działalności operacyjnej: %s." % data[6],
                "- Zysk (strata) netto: %s." % data[8],
                "## Najważniejsze zdarzenia",
                "W okresie sprawozdawczym najważniejszymi zdarzeniami były: %s." % data[10],
                "## Prognozy",
                "Spółka nie publikuje prognoz wyników finansowych.",
                "Raport nie podlegał badaniu ani przeglądowi biegłego rewidenta."]
    return [CO_EN,
            "Quarterly report for %s, prepared under the rules of the alternative trading system." % data[1],
            "## Selected financial data (PLN thousand)",
            "- Net revenue from sales: %s (same period of 2024: %s)." % (data[3], data[5]),
            "- Operating profit (loss): %s." % data[7],
            "- Net profit (loss): %s." % data[9],
            "## Key events",
            "The key events of the period were %s." % data[11],
            "## Forecasts",
            "The Company does not publish financial forecasts.",
            "The report has not been audited or reviewed by an auditor.",
            TRANSL]


def financial_xml():
    def kw(tag, cur, prev):
        return (tag, {}, [("KwotaA", {}, cur), ("KwotaB", {}, prev)])
    return ("JednostkaInna", {"xmlns": "urn:botforge:sprawozdanie:przyklad:2024", "wersja": "1.0"}, [
        ("Naglowek", {}, [
            ("OkresOd", {}, "2024-01-01"), ("OkresDo", {}, "2024-12-31"),
            ("DataSporzadzenia", {}, "2025-03-28"), ("Waluta", {}, "PLN"),
        ]),
        ("WprowadzenieDoSprawozdania", {}, [
            ("NazwaFirmy", {}, "BotForge S.A."), ("Siedziba", {}, "Warszawa"),
            ("KRS", {}, "0000712846"), ("NIP", {}, "5252847135"),
        ]),
        ("Bilans", {}, [
            kw("AktywaRazem", "5412300.00", "5688150.00"),
            kw("AktywaTrwale", "2311900.00", "2205400.00"),
            kw("AktywaObrotowe", "3100400.00", "3482750.00"),
            kw("SrodkiPieniezne", "1046200.00", "1392300.00"),
            kw("KapitalWlasny", "3127000.00", "3368000.00"),
            kw("KapitalZakladowy", "229979.10", "164979.10"),
            kw("ZobowiazaniaIRezerwy", "2285300.00", "2320150.00"),
        ]),
        ("RachunekZyskowIStrat", {"wariant": "porownawczy"}, [
            kw("PrzychodyNettoZeSprzedazy", "4862000.00", "3915000.00"),
            kw("ZyskStrataZDzialalnosciOperacyjnej", "-214000.00", "-608000.00"),
            kw("ZyskStrataNetto", "-241000.00", "-633000.00"),
        ]),
    ])


def shareholders_xml(meeting, date, present, rows):
    return ("ListaAkcjonariuszy", {"spolka": "BotForge S.A.", "walneZgromadzenie": meeting, "data": date}, [
        ("LiczbaGlosowNaWalnym", {}, present),
        ("OgolnaLiczbaGlosow", {}, "2299791"),
        ("Prog", {}, "5% głosów na walnym zgromadzeniu"),
        ("Akcjonariusze", {}, [
            ("Akcjonariusz", {}, [("Nazwa", {}, n), ("LiczbaAkcjiIGlosow", {}, v),
                                  ("UdzialWGlosachNaWalnym", {}, a), ("UdzialWOgolnejLiczbieGlosow", {}, t)])
            for n, v, a, t in rows]),
    ])


RESOLUTIONS = {
    "2024-zwz": ["wyboru Przewodniczącego Walnego Zgromadzenia", "przyjęcia porządku obrad",
                 "zatwierdzenia sprawozdania finansowego za 2023 r.",
                 "zatwierdzenia sprawozdania Zarządu z działalności Spółki w 2023 r.",
                 "pokrycia straty netto za 2023 r.", "udzielenia absolutorium członkom Zarządu",
                 "udzielenia absolutorium członkom Rady Nadzorczej", "przyjęcia Regulaminu Rady Nadzorczej"],
    "2025-nwz": ["wyboru Przewodniczącego Walnego Zgromadzenia", "przyjęcia porządku obrad",
                 "odstąpienia od wyboru komisji skrutacyjnej",
                 "podwyższenia kapitału zakładowego w drodze emisji akcji zwykłych na okaziciela serii G "
                 "z zachowaniem prawa poboru oraz zmiany Statutu",
                 "ubiegania się o wprowadzenie akcji serii G i praw do akcji serii G do alternatywnego "
                 "systemu obrotu oraz ich dematerializacji"],
    "2025-zwz": ["wyboru Przewodniczącego Walnego Zgromadzenia", "przyjęcia porządku obrad",
                 "zatwierdzenia sprawozdania finansowego za 2024 r.",
                 "zatwierdzenia sprawozdania Zarządu z działalności Spółki w 2024 r.",
                 "pokrycia straty netto za 2024 r.", "udzielenia absolutorium członkom Zarządu",
                 "udzielenia absolutorium członkom Rady Nadzorczej", "powołania członka Rady Nadzorczej"],
}


def meeting_docs():
    """Notice, draft resolutions, proxy form and adopted resolutions of three meetings."""
    m = [
        ("2024-zwz", "Zwyczajne Walne Zgromadzenie BotForge S.A. zwołane na 27 czerwca 2024 r.",
         "27 czerwca 2024 r., godz. 11:00", "11 czerwca 2024 r.",
         ["Otwarcie obrad i wybór Przewodniczącego.", "Stwierdzenie prawidłowości zwołania i zdolności do podejmowania uchwał.",
          "Przyjęcie porządku obrad.", "Rozpatrzenie i zatwierdzenie sprawozdania finansowego i sprawozdania Zarządu za 2023 r.",
          "Podjęcie uchwały o pokryciu straty za 2023 r.", "Udzielenie absolutorium członkom Zarządu i Rady Nadzorczej.",
          "Przyjęcie Regulaminu Rady Nadzorczej.", "Zamknięcie obrad."],
         "Walne Zgromadzenie zatwierdziło sprawozdanie finansowe za 2023 r. (strata netto 633 tys. zł), "
         "postanowiło pokryć stratę z zysków lat przyszłych, udzieliło absolutorium wszystkim członkom "
         "organów oraz przyjęło Regulamin Rady Nadzorczej (uchwała nr 12/2024). Na Zgromadzeniu "
         "reprezentowano 1 298 406 akcji, tj. 78,70% kapitału zakładowego."),
        ("2025-nwz", "Nadzwyczajne Walne Zgromadzenie BotForge S.A. zwołane na 26 maja 2025 r.",
         "26 maja 2025 r., godz. 11:00", "10 maja 2025 r.",
         ["Otwarcie obrad i wybór Przewodniczącego.", "Stwierdzenie prawidłowości zwołania i zdolności do podejmowania uchwał.",
          "Przyjęcie porządku obrad.", "Podjęcie uchwały w sprawie podwyższenia kapitału zakładowego w drodze emisji akcji "
          "zwykłych na okaziciela serii G z zachowaniem prawa poboru, ustalenia dnia prawa poboru na 30 czerwca 2025 r. "
          "oraz zmiany Statutu.", "Podjęcie uchwały w sprawie ubiegania się o wprowadzenie akcji serii G i praw do akcji "
          "serii G do alternatywnego systemu obrotu oraz ich dematerializacji.", "Zamknięcie obrad."],
         "Walne Zgromadzenie podjęło uchwałę nr 4/2025 o emisji nie mniej niż 1 i nie więcej niż 6 899 373 "
         "akcji serii G po cenie emisyjnej 0,20 zł (wartość nominalna 0,10 zł) z zachowaniem prawa poboru "
         "(dzień prawa poboru: 30 czerwca 2025 r.; 1 prawo poboru uprawnia do objęcia 3 akcji) oraz "
         "uchwałę nr 5/2025 o wprowadzeniu akcji do obrotu. Reprezentowano 1 402 118 akcji (60,97% kapitału)."),
        ("2025-zwz", "Zwyczajne Walne Zgromadzenie BotForge S.A. zwołane na 26 czerwca 2025 r.",
         "26 czerwca 2025 r., godz. 11:00 (po przerwie wznowione 10 lipca 2025 r.)", "10 czerwca 2025 r.",
         ["Otwarcie obrad i wybór Przewodniczącego.", "Stwierdzenie prawidłowości zwołania i zdolności do podejmowania uchwał.",
          "Przyjęcie porządku obrad.", "Rozpatrzenie i zatwierdzenie sprawozdania finansowego i sprawozdania Zarządu za 2024 r.",
          "Podjęcie uchwały o pokryciu straty za 2024 r.", "Udzielenie absolutorium członkom Zarządu i Rady Nadzorczej.",
          "Powołanie członka Rady Nadzorczej.", "Zamknięcie obrad."],
         "W dniu 26 czerwca 2025 r. Walne Zgromadzenie wybrało Przewodniczącego, przyjęło porządek obrad "
         "i zarządziło przerwę do 10 lipca 2025 r. Po wznowieniu obrad zatwierdzono sprawozdanie finansowe "
         "za 2024 r. (strata netto 241 tys. zł), postanowiono pokryć stratę z zysków lat przyszłych, "
         "udzielono absolutorium członkom organów i powołano Pana Rafała Górskiego do Rady Nadzorczej. "
         "Reprezentowano 1 356 540 akcji (58,99% kapitału)."),
    ]
    for key, title, when, reg, agenda, adopted in m:
        base = os.path.join(STATIC, "uploads", "wza")
        write_pdf(os.path.join(base, key + "-ogloszenie.pdf"), "Ogłoszenie o zwołaniu walnego zgromadzenia", [
            CO_PL,
            "Zarząd BotForge S.A., działając na podstawie art. 399 § 1 oraz art. 402(1) Kodeksu spółek "
            "handlowych, zwołuje %s, które odbędzie się %s w siedzibie Spółki w Warszawie, "
            "ul. Prosta 51." % (title[:title.index(" zwołane")], when),
            "## Porządek obrad",
        ] + ["%d. %s" % (i + 1, a) for i, a in enumerate(agenda)] + [
            "## Uczestnictwo",
            "Dzień rejestracji uczestnictwa w Walnym Zgromadzeniu przypada na %s. Prawo uczestnictwa "
            "mają osoby będące akcjonariuszami Spółki w tym dniu, które zażądały od podmiotu "
            "prowadzącego rachunek papierów wartościowych wystawienia imiennego zaświadczenia o prawie "
            "uczestnictwa. Akcjonariusz może uczestniczyć osobiście lub przez pełnomocnika; wzór "
            "pełnomocnictwa jest dostępny na stronie internetowej Spółki." % reg,
        ])
        write_pdf(os.path.join(base, key + "-projekty-uchwal.pdf"), "Projekty uchwał walnego zgromadzenia", [
            CO_PL, "Projekty uchwał na: " + title[:title.index(" zwołane")] + ", " + when + ".",
        ] + ["Uchwała nr %d – w sprawie %s." % (i + 1, r) for i, r in enumerate(RESOLUTIONS[key])] + [
            "Każda z uchwał wchodzi w życie z chwilą podjęcia. Uzasadnienia projektów przedstawia Zarząd "
            "na Zgromadzeniu.",
        ])
        write_docx(os.path.join(base, key + "-formularz-pelnomocnictwa.docx"),
                   "Formularz pełnomocnictwa", [
                       "Pełnomocnictwo do uczestnictwa i wykonywania prawa głosu: " + title[:title.index(" zwołane")] + ", " + when + ".",
                       "## Akcjonariusz",
                       "Imię i nazwisko / firma: ______________________________",
                       "PESEL / KRS: ______________________________",
                       "Liczba akcji: ______________________________",
                       "## Pełnomocnik",
                       "Imię i nazwisko / firma: ______________________________",
                       "Numer dokumentu tożsamości / KRS: ______________________________",
                       "Niniejszym udzielam pełnomocnictwa do reprezentowania mnie na Walnym Zgromadzeniu "
                       "i wykonywania prawa głosu ze wszystkich posiadanych akcji, zgodnie z instrukcją "
                       "poniżej (jeżeli została udzielona).",
                       "Instrukcja do głosowania: ______________________________",
                       "Data i podpis akcjonariusza: ______________________________",
                   ])
        write_pdf(os.path.join(base, key + "-uchwaly-podjete.pdf"), "Uchwały podjęte przez walne zgromadzenie", [
            CO_PL, title[:title.index(" zwołane")] + ", " + when + ".", adopted,
            "Wszystkie uchwały zostały podjęte jednogłośnie w głosowaniu jawnym, z wyjątkiem uchwał "
            "w sprawach osobowych, podjętych w głosowaniu tajnym. Do uchwał nie zgłoszono sprzeciwów.",
        ])


def main():
    inv = os.path.join(STATIC, "investor-docs")
    en = os.path.join(inv, "en")
    up = os.path.join(STATIC, "uploads")

    write_pdf(os.path.join(inv, "ogloszenie-emisja-akcji-serii-g.pdf"),
              "Ogłoszenie o emisji akcji serii G", SERIES_G_PL)
    write_pdf(os.path.join(en, "series-g-share-issue-notice.pdf"),
              "Notice of the series G share issue", SERIES_G_EN)
    write_docx(os.path.join(inv, "formularz-zapisu-akcje-serii-g.docx"),
               "Formularz zapisu na akcje serii G", SUBSCRIPTION_FORM)
    write_pdf(os.path.join(inv, "uchwala-nwz-emisja-akcji-serii-g.pdf"),
              "Uchwała NWZ w sprawie emisji akcji serii G", RESOLUTION_G)
    write_pdf(os.path.join(inv, "statut-botforge-sa.pdf"), "Statut BotForge S.A.", STATUT_PL)
    write_pdf(os.path.join(en, "articles-of-association.pdf"),
              "Articles of Association of BotForge S.A.", STATUT_EN)
    write_pdf(os.path.join(inv, "regulamin-rady-nadzorczej.pdf"), "Regulamin Rady Nadzorczej", RN_BYLAWS)
    write_pdf(os.path.join(inv, "regulamin-zarzadu.pdf"), "Regulamin Zarządu", ZARZAD_BYLAWS)
    write_pdf(os.path.join(inv, "polityka-informacyjna.pdf"), "Polityka informacyjna", POLICY_PL)
    write_pdf(os.path.join(en, "disclosure-policy.pdf"), "Disclosure policy", POLICY_EN)
    write_pdf(os.path.join(inv, "raport-roczny-2024.pdf"), "Raport roczny za 2024 r.", ANNUAL_PL)
    write_pdf(os.path.join(en, "annual-report-2024-summary.pdf"),
              "Annual report 2024 – summary", ANNUAL_EN)
    write_xml(os.path.join(inv, "sprawozdanie-finansowe-2024.xml"), financial_xml(),
              "BotForge S.A. - sprawozdanie finansowe za 2024 r.")
    for q in (1, 2):
        write_pdf(os.path.join(inv, "raport-kwartalny-2025-q%d.pdf" % q),
                  "Raport kwartalny za %s kwartał 2025 r." % ("I" * q), quarterly(q, "pl"))
        write_pdf(os.path.join(en, "quarterly-report-2025-q%d.pdf" % q),
                  "Quarterly report for Q%d 2025" % q, quarterly(q, "en"))

    meeting_docs()

    rep = os.path.join(up, "raporty")
    write_xml(os.path.join(rep, "ebi-4-2025-lista-akcjonariuszy-nwz.xml"),
              shareholders_xml("NWZ", "2025-05-26", "1402118", [
                  ("Tomasz Wierzbicki", "620000", "44.22", "26.96"),
                  ("Marta Kalinowska", "410000", "29.24", "17.83"),
                  ("Vistula Seed Ventures ASI sp. z o.o.", "180000", "12.84", "7.83")]),
              "Lista akcjonariuszy posiadających co najmniej 5% głosów na NWZ BotForge S.A. 26.05.2025")
    write_xml(os.path.join(rep, "ebi-7-2025-lista-akcjonariuszy-zwz.xml"),
              shareholders_xml("ZWZ", "2025-06-26", "1356540", [
                  ("Tomasz Wierzbicki", "620000", "45.70", "26.96"),
                  ("Marta Kalinowska", "410000", "30.22", "17.83"),
                  ("Vistula Seed Ventures ASI sp. z o.o.", "180000", "13.27", "7.83")]),
              "Lista akcjonariuszy posiadających co najmniej 5% głosów na ZWZ BotForge S.A. 26.06.2025")
    write_pdf(os.path.join(rep, "espi-4-2025-zawiadomienie.pdf"),
              "Zawiadomienie o zmianie stanu posiadania akcji", [
                  "Adresat: BotForge S.A., ul. Prosta 51, 00-838 Warszawa; Komisja Nadzoru Finansowego.",
                  "Działając na podstawie art. 69 ust. 1 pkt 2 ustawy o ofercie publicznej, Vistula Seed "
                  "Ventures ASI sp. z o.o. zawiadamia, że w wyniku sprzedaży 65 000 akcji BotForge S.A. "
                  "w transakcjach sesyjnych rozliczonych 14 kwietnia 2025 r. zmniejszyła udział w ogólnej "
                  "liczbie głosów poniżej progu 10%.",
                  "Przed zmianą: 245 000 akcji, stanowiących 10,65% kapitału zakładowego i uprawniających "
                  "do 245 000 głosów (10,65% ogólnej liczby głosów).",
                  "Po zmianie: 180 000 akcji, stanowiących 7,83% kapitału zakładowego i uprawniających "
                  "do 180 000 głosów (7,83% ogólnej liczby głosów).",
                  "Zawiadamiający nie ma podmiotów zależnych posiadających akcje Spółki ani osób, o których "
                  "mowa w art. 87 ust. 1 pkt 3 lit. c ustawy. Nie przysługują mu instrumenty finansowe, o "
                  "których mowa w art. 69b ustawy.",
              ], author="Vistula Seed Ventures ASI sp. z o.o.")
    write_pdf(os.path.join(rep, "ebi-1-2025-harmonogram.pdf"),
              "Harmonogram publikacji raportów okresowych w 2025 r.", [
                  CO_PL,
                  "- Raport kwartalny za IV kwartał 2024 r.: 14 lutego 2025 r.",
                  "- Raport kwartalny za I kwartał 2025 r.: 15 maja 2025 r.",
                  "- Raport roczny za 2024 r.: 30 maja 2025 r.",
                  "- Raport kwartalny za II kwartał 2025 r.: 14 sierpnia 2025 r.",
                  "- Raport kwartalny za III kwartał 2025 r.: 14 listopada 2025 r.",
                  "Ewentualna zmiana terminu zostanie przekazana raportem bieżącym EBI.",
              ])


if __name__ == "__main__":
    main()
    materials.main(STATIC)
    print("documents written under", STATIC)
