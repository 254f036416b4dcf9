// Jest stand-in for asset imports that Vite turns into URLs (the icon sprite, `?no-inline`): a fixed URL string.
module.exports = '/assets/stub.svg';
