import { randomInt } from "node:crypto";
import { keyedHash } from "../../platform/crypto/tokens";

/**
 * Card numbers and passwords. A number is 16 digits: 9, the batch (6 digits), the card's serial in the
 * batch (8 digits) and a Luhn check digit, so a typo is caught before any lookup and a batch's cards
 * form a range. Numbers are not secret; the password is: 12 characters from a 31-letter alphabet
 * without look-alikes (about 59 bits), so guessing is useless even before the lockout.
 */
export const PASSWORD_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const PASSWORD_LENGTH = 12;

export function luhnDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = body.charCodeAt(body.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function cardNumber(batchId: number, serial: number): string {
  const body = `9${String(batchId).padStart(6, "0")}${String(serial).padStart(8, "0")}`;
  return `${body}${luhnDigit(body)}`;
}

/** The batch and serial of a well-formed number, or null when its check digit is wrong. */
export function parseCardNumber(no: string): { batchId: number; serial: number } | null {
  if (!/^9\d{15}$/.test(no)) return null;
  if (luhnDigit(no.slice(0, 15)) !== Number(no[15])) return null;
  return { batchId: Number(no.slice(1, 7)), serial: Number(no.slice(7, 15)) };
}

export function newCardPassword(): string {
  let s = "";
  for (let i = 0; i < PASSWORD_LENGTH; i++) s += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)] ?? "";
  return s;
}

/** A card number as lists show it: the first and last four digits. */
export function maskNo(no: string): string {
  return `${no.slice(0, 4)} **** **** ${no.slice(-4)}`;
}

/** The keyed hash a card's password is kept as (the card's id salts it). */
export function passwordHash(pwdKey: Buffer, cardId: number, password: string): string {
  return keyedHash(pwdKey, "onecard-password", String(cardId), password);
}
