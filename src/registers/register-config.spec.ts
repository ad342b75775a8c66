import { ConfigError } from '../platform/config/app-config';
import { RegistersConfig } from './register-config';

describe('RegistersConfig: the LEI index', () => {
  it('reads GLEIF’s base URLs from REGISTER_LEI_<PURPOSE>_URL, GLEIF’s own by default', () => {
    expect(RegistersConfig.fromEnv({}).urlsOf('LEI')).toEqual({
      API: 'https://api.gleif.org/api/v1',
      WEB: 'https://search.gleif.org',
    });
    const set = RegistersConfig.fromEnv({
      REGISTER_LEI_API_URL: 'http://127.0.0.1:8080/gleif/',
      REGISTER_LEI_WEB_URL: ' https://lei.example ',
    });
    expect(set.lei.urls).toEqual({ API: 'http://127.0.0.1:8080/gleif', WEB: 'https://lei.example' });
    expect(set.urlsOf('GB')).toBe(set.of('GB').urls);
  });

  it('refuses a base URL that is not one, with the registers’ problems', () => {
    let thrown: unknown;
    try {
      RegistersConfig.fromEnv({ REGISTER_LEI_API_URL: 'api.gleif.org', REGISTER_NO_API_URL: 'nope' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems).toEqual(
      expect.arrayContaining([
        'REGISTER_LEI_API_URL: must be an absolute URL',
        'REGISTER_NO_API_URL: must be an absolute URL',
      ]),
    );
  });
});
