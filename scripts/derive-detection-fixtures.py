#!/usr/bin/env python3
"""Derives the changed versions of recorded register answers used by the detection tests.

Each output file is a recorded (or already derived) answer with the named fields changed and
nothing else; file names say `derived`. Run from the repository root; the outputs are
committed and listed in each folder's MANIFEST.md.
"""
import copy, json, os

R = 'test/fixtures/registers'

def load(p):
    with open(os.path.join(R, p), encoding='utf-8') as f:
        return json.load(f)

def save(p, data, jsonp=None, indent=2):
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    if jsonp:
        text = f'{jsonp}({json.dumps(data, ensure_ascii=False, separators=(",", ":"))})'
    with open(os.path.join(R, p), 'w', encoding='utf-8') as f:
        f.write(text + ('' if jsonp else '\n'))

# NO: ABG SUNDAL COLLIER ASA (883603362), the unit of the recorded ASA filter search.
asa = load('no/brreg-enheter-search-organisasjonsform-asa-size5.json')
abg = next(e for e in asa['_embedded']['enheter'] if e['organisasjonsnummer'] == '883603362')
save('no/brreg-enhet-883603362-extracted-from-asa-search.json', abg)
v = copy.deepcopy(abg); v['navn'] = 'ABG SUNDAL COLLIER GROUP ASA'; v['forretningsadresse']['adresse'] = ['Munkedamsveien 45']; v['forretningsadresse']['postnummer'] = '0250'
save('no/brreg-enhet-883603362-derived-renamed-moved.json', v)
v2 = copy.deepcopy(v); v2['organisasjonsform'] = {'kode': 'AS', 'beskrivelse': 'Aksjeselskap', '_links': v['organisasjonsform'].get('_links')}; v2['underAvvikling'] = True; v2['underAvviklingDato'] = '2026-11-20'
save('no/brreg-enhet-883603362-derived-legal-form-changed-in-liquidation.json', v2)

# GB: CANDOUR GROUP LIMITED (08957400), recorded profile.
p = load('gb/ch-company-profile-08957400.json')
v = copy.deepcopy(p); v['company_name'] = 'CANDOUR HOLDINGS LIMITED'; v['registered_office_address']['address_line_1'] = '1 Castle Street'; v['registered_office_address']['postal_code'] = 'CT1 2QF'
save('gb/ch-company-profile-08957400-derived-renamed-moved.json', v)
v2 = copy.deepcopy(v); v2['company_status'] = 'dissolved'; v2['date_of_cessation'] = '2026-11-20'; v2['type'] = 'plc'
save('gb/ch-company-profile-08957400-derived-dissolved-legal-form-changed.json', v2)
# GB stream: GLENCOYNE ENGINEERING LTD (05954546), the recorded companies-stream event.
ev = load('gb/ch-streaming-companies-event-05954546.json')
save('gb/ch-company-profile-05954546-derived-from-stream-event.json', ev['data'])
e1 = copy.deepcopy(ev); e1['data']['company_name'] = 'GLENCOYNE ENGINEERING SERVICES LTD'; e1['event']['timepoint'] = 68805562; e1['event']['published_at'] = '2023-11-04T14:40:00'
save('gb/ch-streaming-companies-event-05954546-derived-renamed.json', e1)
e2 = copy.deepcopy(e1); e2['data']['company_status'] = 'liquidation'; e2['event']['timepoint'] = 68805563; e2['event']['published_at'] = '2023-11-04T14:45:00'
save('gb/ch-streaming-companies-event-05954546-derived-liquidation.json', e2)

# FR: DINUM (130025265), the INSEE head-office search derived from the recorded /siret answer.
s = load('fr/insee-sirene-siret-search-siege-derived-from-siret.json')
v = copy.deepcopy(s); e = v['etablissements'][0]
e['uniteLegale']['denominationUniteLegale'] = 'AGENCE NATIONALE DU NUMERIQUE'; e['adresseEtablissement']['numeroVoieEtablissement'] = '139'; e['adresseEtablissement']['libelleVoieEtablissement'] = 'DE BERCY'; e['adresseEtablissement']['codePostalEtablissement'] = '75012'; e['adresseEtablissement']['libelleCommuneEtablissement'] = 'PARIS 12'
save('fr/insee-sirene-siret-search-siege-130025265-derived-renamed-moved.json', v)
v2 = copy.deepcopy(v); e = v2['etablissements'][0]; e['uniteLegale']['etatAdministratifUniteLegale'] = 'C'; e['uniteLegale']['categorieJuridiqueUniteLegale'] = '7389'
save('fr/insee-sirene-siret-search-siege-130025265-derived-ceased-legal-form-changed.json', v2)
# FR mirror: DANONE (552032534), the recorded recherche-entreprises answer.
m = load('fr/recherche-entreprises-search-q-siren-552032534.json')
v = copy.deepcopy(m); r = v['result']['results'][0]; r['nom_complet'] = 'DANONE GROUPE'; r['nom_raison_sociale'] = 'DANONE GROUPE'
save('fr/recherche-entreprises-search-q-siren-552032534-derived-renamed.json', v)

# DK: MAGENTA ApS (25052943), the recorded document.
d = load('dk/cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json')
v = copy.deepcopy(d); vr = v['hits']['hits'][0]['_source']['Vrvirksomhed']; meta = vr['virksomhedMetadata']
meta['nyesteNavn']['navn'] = 'MAGENTA DIGITAL ApS'; meta['nyesteBeliggenhedsadresse']['vejnavn'] = 'Vesterbrogade'; meta['nyesteBeliggenhedsadresse']['husnummerFra'] = 10; meta['nyesteBeliggenhedsadresse']['postnummer'] = 1620; meta['nyesteBeliggenhedsadresse']['postdistrikt'] = 'København V'
vr['sidstOpdateret'] = '2026-11-22T12:30:00.000+01:00'
save('dk/cvr-es-virksomhed-by-cvr-25052943-derived-renamed-moved.json', v)
v2 = copy.deepcopy(v); vr = v2['hits']['hits'][0]['_source']['Vrvirksomhed']; meta = vr['virksomhedMetadata']
meta['nyesteVirksomhedsform']['langBeskrivelse'] = 'Aktieselskab'; meta['nyesteVirksomhedsform']['kortBeskrivelse'] = 'A/S'; meta['nyesteVirksomhedsform']['virksomhedsformkode'] = 60
for st in vr.get('virksomhedsstatus', []):
    if st['periode'].get('gyldigTil') is None: st['periode']['gyldigTil'] = '2026-11-21'
vr['virksomhedsstatus'].append({'status': 'OPLØST EFTER FRIVILLIG LIKVIDATION', 'periode': {'gyldigFra': '2026-11-22', 'gyldigTil': None}, 'sidstOpdateret': '2026-11-22T13:00:00.000+01:00'})
meta['sammensatStatus'] = 'Opløst efter frivillig likvidation'
vr['sidstOpdateret'] = '2026-11-22T13:00:00.000+01:00'
save('dk/cvr-es-virksomhed-by-cvr-25052943-derived-dissolved-legal-form-changed.json', v2)

# AU: Oneflare Pty Ltd (26154482283), the recorded AbnDetails answer.
a = json.loads(open(os.path.join(R, 'au/abr-json-abndetails-26154482283-oneflare-active.jsonp')).read().strip()[len('callback('):-1])
v = dict(a); v['EntityName'] = 'Oneflare Group Pty Ltd'; v['AddressState'] = 'VIC'; v['AddressPostcode'] = '3000'; v['AddressDate'] = '2026-11-20'
save('au/abr-json-abndetails-26154482283-derived-renamed-moved.jsonp', v, jsonp='callback')
v2 = dict(v); v2['AbnStatus'] = 'Cancelled'; v2['AbnStatusEffectiveFrom'] = '2026-11-21'; v2['EntityTypeCode'] = 'PUB'; v2['EntityTypeName'] = 'Australian Public Company'
save('au/abr-json-abndetails-26154482283-derived-cancelled-legal-form-changed.jsonp', v2, jsonp='callback')

# CA: Abbotsford Chamber of Commerce (1007), the corporation JSON constructed from the docs.
c = load('ca/corpcan-api-corporation-1007-constructed-from-docs.json')
v = copy.deepcopy(c); o = v[0]
for n in o['corporationNames']:
    if n['CorporationName']['current']: n['CorporationName']['current'] = False; n['CorporationName']['expiryDate'] = '2026-11-20'
o['corporationNames'].append({'CorporationName': {'name': 'Abbotsford Chamber of Commerce and Industry', 'nameType': 'Primary', 'current': True, 'effectiveDate': '2026-11-20'}})
o['adresses'][0]['address']['addressLine'] = ['100 - 2774 TRETHEWEY STREET']; o['adresses'][0]['address']['postalCode'] = 'V2T 3R1'
save('ca/corpcan-api-corporation-1007-derived-renamed-moved.json', v)
v2 = copy.deepcopy(v); v2[0]['status'] = 'Dissolved'; v2[0]['act'] = 'Canada Not-for-profit Corporations Act'
save('ca/corpcan-api-corporation-1007-derived-dissolved-act-changed.json', v2)
# CZ: HELLA AUTOTECHNIK NOVA, s.r.o. (25834151) and SAD s.r.o. (25063677), the recorded ARES
# subjects (laid out as recorded, 4 spaces); the notification batches, from the recorded vr batch
# list (1 space) and the item shape the shared MANIFEST quotes.
h = load('cz/ares-ekonomicke-subjekty-ico-25834151-hella.json')
v = copy.deepcopy(h); v['obchodniJmeno'] = 'HELLA AUTOTECHNIK NOVA, s.r.o. v likvidaci'; v['datumAktualizace'] = '2026-07-26'
save('cz/ares-ekonomicke-subjekty-ico-25834151-derived-renamed-v-likvidaci.json', v, indent=4)
v2 = copy.deepcopy(h); v2['seznamRegistraci']['stavZdrojeIr'] = 'AKTIVNI'; v2['datumAktualizace'] = '2026-07-27'
save('cz/ares-ekonomicke-subjekty-ico-25834151-derived-ir-aktivni.json', v2, indent=4)
sad = load('cz/ares-ekonomicke-subjekty-ico-25063677-sad-sro.json')
z = {}
for k, val in sad.items():
    z[k] = val
    if k == 'datumVzniku': z['datumZaniku'] = '2024-03-31'
save('cz/ares-ekonomicke-subjekty-ico-25063677-derived-zanikly.json', z, indent=4)
listed = {b['cisloDavky']: b for b in load('cz/ares-ekonomicke-subjekty-notifikace-vyhledat-vr-trimmed-2-batches.json')['notifikacniDavky']}
def batch(n, items, released=None):
    b = dict(listed.get(n) or {'cisloDavky': n, 'datovyZdroj': 'vr', 'datumUvolneniDavky': released, 'pocetZmen': 0})
    b['pocetZmen'] = len(items); b['seznamNotifikaci'] = [{'typZmeny': t, 'icoId': i} for t, i in items]
    return b
save('cz/ares-ekonomicke-subjekty-notifikace-davka-vr-671-derived.json', batch(671, [('UPD', '25063677'), ('UPD', '27074358')]), indent=1)
b680 = [('UPD', '25834151'), ('UPD', '27074358'), ('UPD', '25834151'), ('DEL', '25063677'), ('UPD', 'ARES_00369838')]
save('cz/ares-ekonomicke-subjekty-notifikace-davka-vr-680-derived.json', batch(680, b680), indent=1)
# A batch released after the recorded ones (681, the day after 680), for a feed already past 680.
save('cz/ares-ekonomicke-subjekty-notifikace-davka-vr-681-derived.json', batch(681, b680, '2026-07-26'), indent=1)
three = load('cz/ares-ekonomicke-subjekty-notifikace-vyhledat-vr-trimmed-2-batches.json')
three['notifikacniDavky'].append({'cisloDavky': 681, 'datovyZdroj': 'vr', 'datumUvolneniDavky': '2026-07-26', 'pocetZmen': len(b680)})
save('cz/ares-ekonomicke-subjekty-notifikace-vyhledat-vr-derived-3-batches.json', three, indent=1)
# FI: Nokia Oyj (0112038-9), the recorded PRH YTJ v3 answer.
n = load('fi/prh-ytj-v3-companies-businessId-0112038-9-nokia-oyj.json')
v = copy.deepcopy(n); c = v['companies'][0]
for nm in c['names']:
    if nm['type'] == '1':
        nm['version'] += 1
        if 'endDate' not in nm: nm['endDate'] = '2026-11-19'
c['names'].insert(0, {'name': 'Nokia Group Oyj', 'type': '1', 'registrationDate': '2026-11-20', 'version': 1, 'source': '1'})
street = next(a for a in c['addresses'] if a['type'] == 1)
street['street'] = 'Karaportti'; street['buildingNumber'] = '3'; street['registrationDate'] = '2026-11-20'
c['lastModified'] = '2026-11-20T08:15:00'
save('fi/prh-ytj-v3-companies-businessId-0112038-9-derived-renamed-moved.json', v)
v2 = copy.deepcopy(v); c = v2['companies'][0]
form = c['companyForms'][0]; form['endDate'] = '2026-11-20'; form['version'] = 2
c['companyForms'].insert(0, {'type': '16', 'descriptions': [{'languageCode': '1', 'description': 'Osakeyhtiö'}, {'languageCode': '3', 'description': 'Limited company'}, {'languageCode': '2', 'description': 'Aktiebolag'}], 'registrationDate': '2026-11-21', 'version': 1, 'source': '1'})
c['companySituations'] = [{'type': 'SELTILA', 'registrationDate': '2026-11-21', 'source': '1'}]
c['lastModified'] = '2026-11-21T09:30:00'
save('fi/prh-ytj-v3-companies-businessId-0112038-9-derived-liquidation-legal-form-changed.json', v2)
# GB officers and filings streams: no profile or officer list of the companies of the recorded
# officer and filing events exists, so the watched companies' profiles are the recorded
# GLENCOYNE profile under their numbers, and 10345936's officer list is its director whose
# resignation the stream recorded, before it (the resignation event's data less resigned_on).
for n in ['10345936', '12317301']:
    v = copy.deepcopy(ev['data']); v['company_number'] = n; v['links'] = {'self': f'/company/{n}'}
    save(f'gb/ch-company-profile-{n}-derived-from-05954546.json', v)
res = load('gb/ch-streaming-officers-event-10345936-resignation.json')
before = copy.deepcopy(res['data']); del before['resigned_on']
save('gb/ch-company-officers-10345936-derived-from-stream-events.json', {'active_count': 1, 'inactive_count': 0, 'items': [before], 'items_per_page': 35, 'kind': 'officer-list', 'resigned_count': 0, 'start_index': 0, 'total_results': 1})
app = load('gb/ch-streaming-officers-event-10345936-appointment.json')
again = copy.deepcopy(app); again['event']['timepoint'] = 2240390; again['event']['published_at'] = '2021-08-20T13:40:12'
save('gb/ch-streaming-officers-event-10345936-appointment-derived-resent.json', again)
after = copy.deepcopy(res['data'])
save('gb/ch-company-officers-10345936-derived-after-stream-events.json', {'active_count': 1, 'inactive_count': 0, 'items': [copy.deepcopy(app['data']), after], 'items_per_page': 35, 'kind': 'officer-list', 'resigned_count': 1, 'start_index': 0, 'total_results': 2})
renamed = copy.deepcopy(ev); renamed['data']['company_number'] = '10345936'; renamed['data']['links'] = {'self': '/company/10345936'}; renamed['resource_uri'] = '/company/10345936'; renamed['resource_id'] = '10345936'
renamed['data']['company_name'] = 'GLENCOYNE ENGINEERING SERVICES LTD'; renamed['event']['timepoint'] = 68805570; renamed['event']['published_at'] = '2023-11-04T15:00:00'
save('gb/ch-streaming-companies-event-10345936-derived-renamed.json', renamed)
save('gb/ch-company-profile-10345936-derived-renamed.json', renamed['data'])
# NO roles: Equinor's recorded roles less one board member (a resignation).
roles = load('no/brreg-enhet-roller-923609016-equinor.json')
v = copy.deepcopy(roles)
styre = next(g for g in v['rollegrupper'] if g['type']['kode'] == 'STYR')
styre['roller'] = [r for r in styre['roller'] if (r.get('person') or {}).get('navn', {}).get('etternavn') != 'Drinkwater']
styre['sistEndret'] = '2026-11-22'
save('no/brreg-enhet-roller-923609016-derived-board-member-left.json', v)

print('derived fixtures written')
