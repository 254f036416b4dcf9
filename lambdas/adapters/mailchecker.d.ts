declare module 'mailchecker' {
  const MailChecker: { isValid(email: string): boolean };
  export default MailChecker;
}
