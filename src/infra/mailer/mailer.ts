import { getLogger } from "@logtape/logtape";
import nodemailer from "nodemailer";
import type { SmtpConfig } from "../../config/index.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** The most recent mails (kept in memory for operators and tests; never more than 50). */
  readonly recent: Mail[];
}

const logger = getLogger(["gannet", "mail"]);

/** Sends through SMTP when configured; otherwise writes each mail to the log. */
export function createMailer(smtp: SmtpConfig | undefined): Mailer {
  const recent: Mail[] = [];
  const transport = smtp
    ? nodemailer.createTransport({
        host: smtp.server,
        port: smtp.port,
        secure: smtp.secure,
        auth: smtp.login ? { user: smtp.login, pass: smtp.password ?? "" } : undefined,
      })
    : undefined;
  return {
    recent,
    async send(mail: Mail) {
      recent.push(mail);
      if (recent.length > 50) recent.shift();
      if (transport && smtp) {
        await transport.sendMail({ from: smtp.fromAddress, to: mail.to, subject: mail.subject, text: mail.text });
      } else {
        logger.info("Mail to {to}: {subject}\n{text}", { ...mail });
      }
    },
  };
}
