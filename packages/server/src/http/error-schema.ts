import { ERROR_CODES } from '@baton/core';
import { z } from 'zod';

export const ErrorCode = z.enum(ERROR_CODES);
