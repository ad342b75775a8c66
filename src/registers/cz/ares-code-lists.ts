import { lookupTable } from '../../platform/lookup-table';
import type { StatusCategory } from '../connector';

/**
 * ARES's legal-form code list (číselník `PravniForma`, sources res/com), code → the register's
 * Czech wording. ARES serves the list itself at `POST /ciselniky-nazevniky/vyhledat`
 * (`{"kodCiselniku":"PravniForma","zdrojCiselniku":"res"}`), but no answer of it was recorded
 * (shared/registers-next.md §2). Sources, so UNVERIFIED as a whole:
 * - 101, 112, 121, 601 are the codes of the recorded subjects and registers-next.md's samples;
 * - the wording is that of two public projects that quote labels read from that endpoint in
 *   2026 (101 "…dle živnostenského zákona", 331, 701, 771, 801, 804 as here), and, for codes
 *   they do not quote, ARES's own legal-form page of the old XML service
 *   (wwwinfo.mfcr.cz/ares/aresPrFor.html.cz) as copied into public code, whose real XML
 *   answers name code 101 "Fyzická osoba podnikající dle živnostenského zákona nezapsaná v
 *   obchodním rejstříku" (the wording before the 2021 change).
 * An unknown code is not shown as a legal form (the code stays in `extra.pravniForma`).
 */
export const PRAVNI_FORMA: Readonly<Record<string, string>> = lookupTable({
  '100': 'Podnikající fyzická osoba tuzemská',
  '101': 'Fyzická osoba podnikající dle živnostenského zákona',
  '102': 'Fyzická osoba podnikající dle živnostenského zákona zapsaná v obchodním rejstříku',
  '103': 'Samostatně hospodařící rolník nezapsaný v obchodním rejstříku',
  '104': 'Samostatně hospodařící rolník zapsaný v obchodním rejstříku',
  '105': 'Fyzická osoba podnikající dle jiných zákonů než živnostenského a zákona o zemědělství',
  '106':
    'Fyzická osoba podnikající dle jiných zákonů než živnostenského a zákona o zemědělství zapsaná v obchodním rejstříku',
  '107': 'Zemědělský podnikatel - fyzická osoba',
  '108': 'Zemědělský podnikatel - fyzická osoba zapsaná v obchodním rejstříku',
  '111': 'Veřejná obchodní společnost',
  '112': 'Společnost s ručením omezeným',
  '113': 'Společnost komanditní',
  '114': 'Společnost komanditní na akcie',
  '115': 'Společný podnik',
  '116': 'Zájmové sdružení',
  '117': 'Nadace',
  '118': 'Nadační fond',
  '121': 'Akciová společnost',
  '141': 'Obecně prospěšná společnost',
  '145': 'Společenství vlastníků jednotek',
  '151': 'Komoditní burza',
  '152': 'Garanční fond obchodníků s cennými papíry',
  '161': 'Ústav',
  '201': 'Zemědělské družstvo',
  '205': 'Družstvo',
  '231': 'Výrobní družstvo',
  '232': 'Spotřební družstvo',
  '233': 'Bytové družstvo',
  '234': 'Jiné družstvo',
  '241': 'Družstevní podnik (s jedním zakladatelem)',
  '242': 'Společný podnik (s více zakladateli)',
  '251': 'Zájmová organizace družstev',
  '261': 'Společná zájmová organizace družstev',
  '301': 'Státní podnik',
  '302': 'Národní podnik',
  '312': 'Banka-státní peněžní ústav',
  '313': 'Česká národní banka',
  '325': 'Organizační složka státu',
  '331': 'Příspěvková organizace',
  '332': 'Státní příspěvková organizace',
  '352': 'Státní organizace Správa železnic',
  '353': 'Rada pro veřejný dohled nad auditem',
  '361': 'Veřejnoprávní instituce (ČT,ČRo,ČTK)',
  '362': 'Česká tisková kancelář',
  '381': 'Fond (ze zákona)',
  '382': 'Státní fond ze zákona nezapisující se do obchodního rejstříku',
  '391': 'Zdravotní pojišťovna',
  '392': 'Všeobecná zdravotní pojišťovna',
  '421': 'Odštěpný závod zahraniční právnické osoby',
  '422': 'Organizační složka zahraničního nadačního fondu',
  '423': 'Organizační složka zahraniční nadace',
  '424': 'Zahraniční fyzická osoba',
  '425': 'Odštěpný závod zahraniční fyzické osoby',
  '426': 'Zastoupení zahraniční banky',
  '501': 'Odštěpný závod nebo jiná organizační složka podniku zapisující se do obchodního rejstříku',
  '521': 'Samostatná drobná provozovna obecního úřadu',
  '525': 'Vnitřní organizační jednotka organizační složky státu',
  '541': 'Podílový fond',
  '601': 'Vysoká škola (veřejná, státní)',
  '641': 'Školská právnická osoba',
  '651': 'Zdravotnické zařízení',
  '661': 'Veřejná výzkumná instituce',
  '701': 'Sdružení (svaz, spolek, společnost, klub aj.)',
  '703': 'Odborová organizace a organizace zaměstnavatelů',
  '704': 'Zvláštní organizace pro zastoupení českých zájmů v mezinárodních nevládních organizacích',
  '705': 'Podnik nebo hospodářské zařízení sdružení',
  '706': 'Spolek',
  '707': 'Odborová organizace',
  '708': 'Organizace zaměstnavatelů',
  '711': 'Politická strana, politické hnutí',
  '715': 'Podnik nebo hospodářské zařízení politické strany',
  '721': 'Církve a náboženské společnosti',
  '722': 'Evidované církevní právnické osoby',
  '723': 'Svazy církví a náboženských společností',
  '731': 'Organizační jednotka sdružení',
  '732': 'Organizační jednotka politické strany, politického hnutí',
  '733': 'Organizační jednotka odborové organizace a organizace zaměstnavatelů',
  '736': 'Pobočný spolek',
  '741': 'Stavovská organizace - profesní komora',
  '745': 'Komora (s výjimkou profesních komor)',
  '751': 'Zájmové sdružení právnických osob',
  '761': 'Honební společenstvo',
  '771': 'Dobrovolný svazek obcí',
  '801': 'Obec nebo městská část hlavního města Prahy',
  '804': 'Kraj a hl.m.Praha',
  '805': 'Regionální rada regionu soudržnosti',
  '811': 'Městská část, městský obvod',
  '906': 'Zahraniční spolek',
  '907': 'Mezinárodní odborová organizace',
  '908': 'Mezinárodní organizace zaměstnavatelů',
  '921': 'Mezinárodní organizace a sdružení',
  '922': 'Organizační jednotka organizace s mezinárodním prvkem',
  '931': 'Evropské hospodářské zájmové sdružení',
  '932': 'Evropská společnost',
  '933': 'Evropská družstevní společnost',
  '936': 'Zahraniční pobočný spolek',
  '937': 'Pobočná mezinárodní odborová organizace',
  '938': 'Pobočná mezinárodní organizace zaměstnavatelů',
  '941': 'Evropské seskupení pro územní spolupráci',
  '950': 'Subjekt právním řádem výslovně neupravený',
  '951': 'Mezinárodní vojenská organizace vzniklá na základě mezinárodní smlouvy',
  '952': 'Konsorcium evropské výzkumné infrastruktury',
  '960': 'Právnická osoba zřízená zvláštním zákonem zapisovaná do veřejného rejstříku',
  '961': 'Svěřenský fond',
  '962': 'Zahraniční svěřenský fond',
});

/**
 * A subject's state in one source (`seznamRegistraci.stavZdroje<Source>`, code list
 * `StavZdroje`): the code, our Czech rendering of it (ARES publishes codes only; the code
 * list's own labels were not recorded) and its category. AKTIVNI and NEEXISTUJICI are in the
 * recorded answers; ZANIKLY only in third-party mocks (UNVERIFIED). NEEXISTUJICI ("not in this
 * source") says nothing about the subject, so it is not a status.
 */
export const STAV_ZDROJE: Readonly<Record<string, { status: string; statusCategory: StatusCategory }>> = lookupTable({
  AKTIVNI: { status: 'Aktivní', statusCategory: 'active' },
  ZANIKLY: { status: 'Zaniklý', statusCategory: 'dissolved' },
});

/** ARES's error codes (`KodChybyEnum` of the OpenAPI document), in plain English for messages and logs. */
export const KOD_CHYBY: Readonly<Record<string, string>> = lookupTable({
  OBECNA_CHYBA: 'a general server error',
  CHYBA_VSTUPU: 'an input error',
  NENALEZENO: 'not found',
  NENI_IMPLEMENTOVANO: 'not implemented',
  NEPRIHLASENY_UZIVATEL: 'an unauthenticated user',
  NENI_OPRAVNENI: 'no permission',
});

/**
 * The sources (`datovyZdroj`) that publish numbered notification batches, as the OpenAPI
 * document's `EkonomickeSubjektyNotifikaceFiltr` lists them. Changes seen only in the other
 * sources ARES aggregates — VAT (dph, skDph), excise (sd), insolvency (ir), bankrupts (ceu),
 * subsidies (red), monitor — are announced by no feed and show only on a re-read.
 */
export const NOTIFICATION_SOURCES = ['vr', 'res', 'ros', 'rzp', 'nrpzs', 'rcns', 'rpsh', 'rs', 'szr'] as const;
export type NotificationSource = (typeof NOTIFICATION_SOURCES)[number];
