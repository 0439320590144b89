/** @module German messages. */
import type { Messages } from "./en.ts";

export const de: Messages = {
  loading: "Checkout wird geladen…",
  testMode: "Testmodus — nur Testnetzwerke. Niemals echte (Mainnet-)Mittel senden.",
  orderTotal: "Gesamtbetrag",
  chooseCurrency: "Wählen Sie, womit Sie bezahlen",
  noCurrencies: "Derzeit ist keine Kryptowährung verfügbar. Bitte später erneut versuchen.",
  sendExactly: "Senden Sie genau",
  sendRemaining: "Senden Sie den Restbetrag",
  toAddress: "An diese Adresse",
  copy: "Kopieren",
  copyAmount: "Betrag kopieren",
  copyAddress: "Adresse kopieren",
  copied: "In die Zwischenablage kopiert",
  copyFailed: "Kopieren fehlgeschlagen — markieren Sie den Text",
  qrFailed: "Der QR-Code konnte nicht geladen werden: Kopieren Sie Betrag und Adresse.",
  openWallet: "In Wallet öffnen",
  sendOnly:
    "Senden Sie nur {code} und nur über das Netzwerk {network}. Mit einem anderen Coin oder über ein anderes Netzwerk gesendetes Geld geht verloren.",
  expiresIn: "Läuft ab in {time}",
  minutesLeft: {
    one: "Noch {count} Minute zum Bezahlen",
    other: "Noch {count} Minuten zum Bezahlen",
  },
  expired: "Das Zahlungsfenster ist geschlossen.",
  changeCurrency: "Währung ändern",
  qrLabel: "QR-Code: {amount} {code} im Netzwerk {network} an {address} zahlen",
  hostedIntro:
    "Fahren Sie auf der Zahlungsseite fort; dieses Feld aktualisiert sich, sobald Ihre Zahlung eintrifft.",
  openPaymentPage: "Zahlungsseite öffnen",
  payOnPhone: "Mit dem Handy bezahlen",
  phoneQr: "Mit der Handykamera scannen, um die Zahlungsseite zu öffnen.",
  statusWaiting: "Warten auf Ihre Zahlung…",
  statusNew: "Noch nicht bezahlt.",
  statusProcessing: "Zahlung erkannt — warten auf Netzwerkbestätigungen.",
  statusSuspended:
    "Ihre Zahlung wird geprüft. Sie müssen nichts tun; diese Seite aktualisiert sich.",
  statusPaid: "Bezahlt — vielen Dank!",
  statusOverpaid: "Bezahlt — Sie haben {extra} mehr als nötig gesendet.",
  statusPartial: "{received} von {amount} {code} erhalten.",
  statusPartialEnded:
    "{received} von {amount} {code} erhalten, bevor die Zahlungsfrist ablief. Versuchen Sie es erneut, um die noch offenen {due} zu zahlen.",
  statusExpired: "Dieser Zahlungsversuch ist abgelaufen, bevor eine Zahlung eintraf.",
  statusFailed: "Dieser Zahlungsversuch ist fehlgeschlagen.",
  statusCancelled: "Dieser Zahlungsversuch wurde storniert.",
  partialAcrossAttempts: "Bereits {paid} von {total} bezahlt.",
  tryAgain: "Erneut versuchen",
  backToShop: "Zurück zum Shop",
  refundTitle: "Rückerstattungsadresse",
  refundHelp: "Ihre {code}-Adresse im Netzwerk {network}, falls eine Rückerstattung fällig wird.",
  refundSave: "Rückerstattungsadresse speichern",
  refundSaved: "Rückerstattungsadresse gespeichert.",
  addressInvalid: "Dies ist keine gültige {code}-Adresse im Netzwerk {network}.",
  addressChecksum: "Diese Adresse enthält einen Tippfehler (die Prüfsumme stimmt nicht).",
  addressTestnet: "Testmodus: Geben Sie eine Testnetz-Adresse an, keine Mainnet-Adresse.",
  errorRefundAddressFrozen:
    "Eine Rückerstattung an die angegebene Adresse ist bereits unterwegs; sie kann nicht mehr geändert werden.",
  errorGeneric: "Etwas ist schiefgelaufen. Bitte erneut versuchen.",
  errorNetwork:
    "Der Checkout-Dienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.",
  errorToken:
    "Dieser Checkout-Link ist ungültig. Bitte kehren Sie zum Shop zurück und beginnen Sie neu.",
  errorTokenExpired: "Dieser Checkout-Link ist abgelaufen. Bitte laden Sie die Seite neu.",
  errorNoToken: "Diesem Checkout fehlt sein Token. Der Shop muss das token-Attribut setzen.",
  errorConflict:
    "Für diese Bestellung gibt es bereits einen Checkout mit anderem Betrag. Bitte wenden Sie sich an den Shop.",
  errorBelowMinimum: "Der Betrag liegt unter dem Minimum dieser Zahlungsart.",
  errorBusy: "Der Zahlungsdienst ist ausgelastet. Bitte gleich erneut versuchen.",
  errorRateLimited: "Zu viele Versuche. Bitte eine Minute warten.",
  errorCurrency: "Diese Währung ist derzeit nicht verfügbar. Bitte eine andere wählen.",
  errorConfig:
    "Der Checkout des Shops ist noch nicht eingerichtet. Bitte wenden Sie sich an den Shop.",
  errorNotFound:
    "Diesen Checkout gibt es nicht mehr. Bitte gehen Sie zurück zum Shop und beginnen Sie neu.",
  errorOrderPaid: "Diese Bestellung ist bereits bezahlt.",
  statusRemainderBelowMinimum:
    "Es sind noch {due} offen, weniger als die kleinste Zahlung, die der Dienst annimmt ({minimum}). Der Shop erstattet oder akzeptiert diese Bestellung; hier ist nichts mehr zu zahlen.",
  statusRefunded:
    "Diese Bestellung wurde erstattet. Bitte wenden Sie sich an den Shop, um erneut zu kaufen.",
  errorContactShop:
    "Diese Bestellung kann hier nicht bezahlt werden. Bitte wenden Sie sich an den Shop.",
  errorAttemptOpen:
    "Für diese Bestellung ist noch eine Zahlung offen. Bitte warten Sie kurz und versuchen Sie es erneut.",
  payTitle: "Zahlung senden",
  retry: "Erneut versuchen",
  refundTooSmall:
    "{excess} {code} ist weniger als die kleinste Rückerstattung, die gesendet werden kann ({minimum} {code} einschließlich Netzwerkgebühr), daher kann der Betrag nicht automatisch zurückgesendet werden. Bei Fragen dazu wenden Sie sich an den Shop.",
  errorOrigin:
    "Diese Website darf diesen Checkout nicht verwenden. Der Shop muss sie in den Einstellungen des Checkouts freigeben.",
  reconnecting: "Verbindung unterbrochen — neuer Verbindungsversuch…",
  topUpTitle: "Aufladen mit {code} im Netzwerk {network}",
  topUpChoose: "Wählen Sie die Währung zum Aufladen",
  topUpSendTo: "Senden Sie einen beliebigen Betrag an diese Adresse",
  topUpMinimum: "Mindesteinzahlung: {amount} {code}",
  topUpFee: "Servicegebühr: {percent} % des gesendeten Betrags",
  topUpNetworkFee: "Netzwerkgebühr: {amount} {code}",
  topUpWaiting: "Warten auf Ihre Einzahlung…",
  topUpProcessing: "Einzahlung erkannt — warten auf Netzwerkbestätigungen.",
  topUpCompleted: "{net} {code} gutgeschrieben.",
  topUpBreakdown:
    "Erhalten {received} − Servicegebühr {commission} − Netzwerkgebühr {fee} = {net} {code}",
  topUpFailed: "Diese Einzahlung ist fehlgeschlagen. Bitte wenden Sie sich an den Shop.",
  topUpExpired: "Diese Einzahlungsadresse ist abgelaufen.",
  topUpCancelled: "Diese Einzahlung wurde storniert.",
  payFromWallet: "Mit Ihrer Wallet bezahlen",
  walletAmount: "{amount} {code} im Netzwerk {network}",
  walletConfirming: "Ihre Zahlung wird bestätigt…",
  walletNone:
    "In diesem Browser wurde keine Wallet gefunden. Installieren Sie eine Wallet-Erweiterung oder bezahlen Sie auf anderem Weg.",
  walletBrowser: "Browser-Wallet",
  walletCheck: "Bitte in Ihrer Wallet fortfahren…",
  walletSending: "Ihre Zahlung wird gesendet…",
  walletDeclined: "Sie haben in Ihrer Wallet abgelehnt.",
  walletWrongChain:
    "Ihre Wallet ist nicht im Netzwerk {network}. Wechseln Sie zu {network} und versuchen Sie es erneut.",
  walletFailed:
    "Ihre Wallet konnte den Vorgang nicht abschließen. Versuchen Sie es erneut oder wählen Sie eine andere Wallet.",
  walletBalance: "Nicht genug USDC in dieser Wallet.",
  walletExpired: "Die Signatur ist abgelaufen. Bitte erneut signieren.",
  walletBadSignature:
    "Die Signatur der Wallet konnte nicht bestätigt werden. Versuchen Sie es erneut oder wählen Sie eine andere Wallet.",
  walletRefused: "Die Zahlung wurde abgelehnt ({reason}).",
  walletInFlight:
    "Eine andere Zahlung für diese Bestellung wird gerade bestätigt. Bitte warten Sie einen Moment.",
  walletNotOffered: "Das Bezahlen mit einer Wallet ist für diese Bestellung nicht mehr möglich.",
  walletInvalid: "Die Zahlung konnte nicht vorbereitet werden. Bitte versuchen Sie es erneut.",
  walletOther: "Andere Wallet wählen",
  walletBack: "Anders bezahlen",
  walletInvoice: "Mit einer Browser-Wallet bezahlen",
  walletSent: "Aus Ihrer Wallet gesendet — warten auf das Netzwerk",
  walletNoChain:
    "Ihre Wallet kennt das Netzwerk {network} nicht. Fügen Sie es in Ihrer Wallet hinzu oder bezahlen Sie auf anderem Weg.",
  walletNoFunds: "Nicht genug Guthaben in dieser Wallet für diesen Betrag und die Netzwerkgebühr.",
  walletTerms:
    "Die Bedingungen der Wallet-Zahlung weichen von den angezeigten ab, daher wurde nichts signiert. Laden Sie die Seite neu oder bezahlen Sie auf anderem Weg.",
  walletLastFailed:
    "Ihre letzte Wallet-Zahlung ist nicht durchgegangen; es wurde nichts abgebucht.",
  walletLastFailedBalance:
    "Ihre letzte Wallet-Zahlung ist nicht durchgegangen (nicht genug USDC); es wurde nichts abgebucht.",
};
