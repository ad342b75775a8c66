import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';

export const signupSchema = z
  .object({
    email: z
      .email({ error: 'not an email address' })
      .max(254)
      .describe('Where the operator can reach you about access requests. Not verified, not shown to anyone else.'),
  })
  .strict();

export const newKeySchema = z
  .object({ name: z.string().trim().min(1).max(100).optional().describe('A label for the key (e.g. "ci").') })
  .strict();

export class LiveDeliveryDto {
  @ApiProperty({
    description:
      'true once an operator approved an access request: live (non-test) events are sent. Until then they are recorded as `held` and not sent.',
  })
  enabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When live delivery was enabled.' })
  since: string | null;
}

export class AccountDto {
  @ApiProperty({ example: 'acct_4QbV0n1mYc3rT8kLp2sXwZ' }) id: string;
  @ApiProperty({ example: 'dev@example.com' }) email: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: LiveDeliveryDto }) liveDelivery: LiveDeliveryDto;
}

export class ApiKeyDto {
  @ApiProperty({ example: 'key_7hGm2QpXr9sT1vWb4nLc0d' }) id: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ description: 'The first characters of the key, to tell keys apart.', example: 'rl_Xy3k9PqL' })
  prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last request made with the key (to within 5 minutes).',
  })
  lastUsedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}

export class NewApiKeyDto {
  @ApiProperty({
    description: 'The API key: shown this once, stored only as a hash. Send it as `Authorization: Bearer <key>`.',
    example: 'rl_Xy3k9PqL…',
  })
  apiKey: string;
  @ApiProperty({ type: ApiKeyDto }) key: ApiKeyDto;
}

export class SignupDto extends NewApiKeyDto {
  @ApiProperty({ type: AccountDto }) account: AccountDto;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto] }) data: ApiKeyDto[];
}
