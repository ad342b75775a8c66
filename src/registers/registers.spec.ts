import { COUNTRY_CODES, REGISTERS } from './registers';

describe('the registers record', () => {
  it.each(COUNTRY_CODES)('%s: its folder’s parts all belong to it', (cc) => {
    const register = REGISTERS[cc];
    expect(register.definition.country).toBe(cc);
    expect(register.simulation.legalFormPairs.length).toBeGreaterThan(0);
    // A register without a bulk file says why; one with bulk formats has nothing to explain.
    if (register.bulkFormats.length === 0) expect(register.noBulkFile).toMatch(/publishes no bulk file/);
    else expect(register.noBulkFile).toBeUndefined();
    for (const format of register.bulkFormats) expect(format.country).toBe(cc);
    for (const word of register.nameStopWords) expect(word).toMatch(/^[a-z0-9]{3,}$/);
  });

  it('has no bulk format id twice', () => {
    const ids = COUNTRY_CODES.flatMap((cc) => REGISTERS[cc].bulkFormats.map((f) => f.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
