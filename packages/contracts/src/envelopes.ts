/** The two response envelopes. Interface A is PascalCase, interface B lower case. */

export interface EnvelopeA<T = unknown> {
  Code: number;
  Message: string;
  Data: T;
}

export interface EnvelopeB<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export const CODE_SUCCESS = 0;
export const CODE_FAILURE = 1;
export const CODE_TOKEN_ERROR = 1003;

export const envelopeA = <T>(Code: number, Message: string, Data: T): EnvelopeA<T> => ({ Code, Message, Data });
export const envelopeB = <T>(code: number, message: string, data: T): EnvelopeB<T> => ({ code, message, data });
