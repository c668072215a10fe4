import { getLogger } from "@logtape/logtape";
import type { Transporter } from "nodemailer";
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
  // nodemailer is loaded the first time a mail goes out through SMTP.
  let transport: Promise<Transporter> | undefined;
  const transportFor = (smtp: SmtpConfig): Promise<Transporter> =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: smtp.server,
        port: smtp.port,
        secure: smtp.secure,
        auth: smtp.login ? { user: smtp.login, pass: smtp.password ?? "" } : undefined,
      }),
    ));
  return {
    recent,
    async send(mail: Mail) {
      recent.push(mail);
      if (recent.length > 50) recent.shift();
      if (smtp) {
        await (await transportFor(smtp)).sendMail({
          from: smtp.fromAddress,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
      } else {
        logger.info("Mail to {to}: {subject}\n{text}", { ...mail });
      }
    },
  };
}
