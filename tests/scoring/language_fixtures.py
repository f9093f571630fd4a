"""Two hand-written learner sentences per language (source, reference, a system that fixes
some of it), for end-to-end tests. Chinese is unsegmented: it is tokenized (by character)."""

SENTENCES = {
    "cs": (
        ["Včera jsem šel do škola .", "Mám dva bratr a jedna sestra"],
        ["Včera jsem šel do školy .", "Mám dva bratry a jednu sestru ."],
        ["Včera jsem šel do školy .", "Mám dva bratr a jedna sestra ."],
    ),
    "de": (
        ["Ich habe gestern ein Hund gesehen .", "Er gehen nach Hause"],
        ["Ich habe gestern einen Hund gesehen .", "Er geht nach Hause ."],
        ["Ich habe gestern einen Hund gesehen .", "Er gehen nach Hause"],
    ),
    "el": (
        ["Χθες πήγα στο σχολείο με τον φίλο μου", "Αυτό είναι ενα πρόβλημα ."],
        ["Χθες πήγα στο σχολείο με τον φίλο μου .", "Αυτό είναι ένα πρόβλημα ."],
        ["Χθες πήγα στο σχολείο με τον φίλο μου .", "Αυτό είναι ενα πρόβλημα ."],
    ),
    "en": (
        ["He go to school yesterday .", "She like cats ."],
        ["He went to school yesterday .", "She likes cats ."],
        ["He goes to school yesterday .", "She likes cats ."],
    ),
    "et": (
        ["Ma lähen homme kooli", "Mul on kaks õde ja üks vend ."],
        ["Ma lähen homme kooli .", "Mul on kaks õde ja üks vend ."],
        ["Ma lähen homme kooli .", "Mul on kaks õde ja üks vend ."],
    ),
    "fr": (
        ["Je suis allé a l' école hier .", "Il a mangé des pommes rouge ."],
        ["Je suis allé à l' école hier .", "Il a mangé des pommes rouges ."],
        ["Je suis allé à l' école hier .", "Il a mangé des pommes rouge ."],
    ),
    "is": (
        ["Ég fór í skólan í gær .", "Hún á tvo bræður"],
        ["Ég fór í skólann í gær .", "Hún á tvo bræður ."],
        ["Ég fór í skólann í gær .", "Hún á tvo bræður"],
    ),
    "it": (
        ["Io ha fame e voglio mangiare .", "Ieri sono andato al cinema con mio amici ."],
        ["Io ho fame e voglio mangiare .", "Ieri sono andato al cinema con i miei amici ."],
        ["Io ho fame e voglio mangiare .", "Ieri sono andato al cinema con miei amici ."],
    ),
    "lv": (
        ["Es dzīvoju Rīga jau divus gadus .", "Viņš ir mans brālis"],
        ["Es dzīvoju Rīgā jau divus gadus .", "Viņš ir mans brālis ."],
        ["Es dzīvoju Rīgā jau divus gadus .", "Viņš ir mans brālis"],
    ),
    "ru": (
        ["Я люблю читать книга .", "Он пошёл в магазин"],
        ["Я люблю читать книги .", "Он пошёл в магазин ."],
        ["Я люблю читать книгу .", "Он пошёл в магазин ."],
    ),
    "sl": (
        ["Včeraj sem šel v šola .", "Imam dva brata"],
        ["Včeraj sem šel v šolo .", "Imam dva brata ."],
        ["Včeraj sem šel v šolo .", "Imam dva brata"],
    ),
    "sv": (
        ["Jag har bott i Sverige i tre år", "Hon gillar att läsa böcker ."],
        ["Jag har bott i Sverige i tre år .", "Hon gillar att läsa böcker ."],
        ["Jag har bott i Sverige i tre år .", "Hon gillar att läsa böcker ."],
    ),
    "uk": (
        ["Я люблю читати книжка .", "Він пішов в магазин"],
        ["Я люблю читати книжки .", "Він пішов до магазину ."],
        ["Я люблю читати книжки .", "Він пішов в магазин ."],
    ),
    "zh": (
        ["我昨天去了学校", "他很喜欢看书。"],
        ["我昨天去了学校。", "他很喜欢看书。"],
        ["我昨天去了学校。", "他很喜欢看书。"],
    ),
}
TOKENIZE = {"zh"}
