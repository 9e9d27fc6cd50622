import type { ApiError } from './api-client';

const NEW_LINK = 'For a new link, press Enter in the terminal where clawsmith web runs and open the URL it prints.';

/**
 * What the person in the browser reads when a sign-in link was refused. The server's message is
 * written for programs too (it names `createLoginUrl()`); a person needs the terminal step only.
 */
export function signInAdvice(refused: ApiError): string {
  switch (refused.code) {
    case 'sign_in_code_used':
      return `This sign-in link was already used: each link signs in once. ${NEW_LINK}`;
    case 'sign_in_code_expired':
      return `This sign-in link expired: a link works for 10 minutes. ${NEW_LINK}`;
    case 'unauthorized':
      return `This sign-in link is not valid (it may be cut short or mistyped). ${NEW_LINK}`;
    case 'too_many_attempts':
      return 'Too many wrong sign-in attempts from this address: wait a minute, then open a new link.';
    default:
      return refused.message;
  }
}
