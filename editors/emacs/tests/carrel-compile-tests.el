;;; carrel-compile-tests.el --- ERT tests of compiling  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-order-tests.el, whose helpers these
;; use.  C asks a recipe (from `carrel/compileOptions') and a format
;; (from `initialize'), and sends
;; `carrel.compile'; X sends `carrel.setCompileIncluded' with the opposite
;; of the row's `leftOut'.  Both run against the real server.

;;; Code:

(require 'carrel-order-tests)

(defun carrel-test--story ()
  "Make the short story Story, whose Draft holds Opening.md and Notes.md."
  (carrel-test--project "Story" "shortStory")
  (carrel-test--file "Story" "Draft" "Opening")
  (carrel-test--file "Story" "Draft" "Notes")
  (write-region "The sea was calm." nil (carrel-test--path "Story" "Draft" "Opening.md"))
  (write-region "Only for me." nil (carrel-test--path "Story" "Draft" "Notes.md")))

(ert-deftest carrel-test-toggle-compile ()
  "X leaves the row out of compile, its summary says so, and X again puts it back."
  (carrel-test--with-library
    (carrel-test--story)
    (carrel-test--goto "Story" "Draft" "Notes.md")
    (let ((uri (carrel--path-to-uri (carrel-test--path "Story" "Draft" "Notes.md")))
          (sent (carrel-test--recording (carrel-test--press "X"))))
      (should (equal (carrel-test--commands-sent sent "carrel.setCompileIncluded")
                     (list (list :uri uri :included :json-false))))
      (carrel-test--wait (lambda () (string-match-p "left out" (or (carrel-test--row "Notes.md") "")))
                         "the summary to say “left out”")
      (carrel-test--goto "Story" "Draft" "Notes.md")
      (should (eq (plist-get (carrel--node-at-point) :leftOut) t))
      (setq sent (carrel-test--recording (carrel-test--press "X")))
      (should (equal (carrel-test--commands-sent sent "carrel.setCompileIncluded")
                     (list (list :uri uri :included t))))
      (carrel-test--wait (lambda () (not (string-match-p "left out" (or (carrel-test--row "Notes.md") ""))))
                         "the summary to drop “left out”"))))

(ert-deftest carrel-test-compile-opens-markdown ()
  "C offers the server's recipes and formats, compiles, and visits the Markdown."
  (carrel-test--with-library
    (carrel-test--story)
    (carrel-test--goto "Story" "Draft" "Notes.md")
    (carrel-test--press "X")
    (carrel-test--wait (lambda () (string-match-p "left out" (or (carrel-test--row "Notes.md") "")))
                       "Notes.md to be left out")
    (carrel-test--goto "Story" "Draft" "Opening.md")
    (let* ((compiled (carrel-test--path "Story" "Compiled" "Story.md"))
           (sent (carrel-test--recording
                   ;; A story's manuscript is a submission packet: its offer dismissed.
                   (carrel-test--answering '("Standard manuscript" "Markdown" quit)
                     (carrel-test--press "C")))))
      (should (equal (carrel-test--asked "Recipe: ") '("Standard manuscript")))
      (should (equal (carrel-test--asked "Compiled “Story.md”: ") '("Submit this packet…")))
      (should-not (carrel-test--commands-sent sent "carrel.submit"))
      ;; The recipe's own format first, so RET keeps it; then the others, as the server lists them.
      (should (equal (car (carrel-test--asked "Format: ")) "Word (DOCX)"))
      (should (member "Markdown" (carrel-test--asked "Format: ")))
      (should (equal (carrel-test--commands-sent sent "carrel.compile")
                     (list (list :projectUri (carrel--path-to-uri (carrel-test--path "Story"))
                                 :recipe "manuscript" :format "markdown"))))
      (should (file-exists-p compiled))
      (let ((text (with-temp-buffer (insert-file-contents compiled) (buffer-string))))
        (should (string-match-p "The sea was calm\\." text))
        (should-not (string-match-p "Only for me" text)))
      (should (carrel-test--visiting compiled))
      (carrel-test--wait (lambda () (string-match-p "^Compiled Compiled/Story\\.md: " (carrel-test--messages)))
                         "the server's report")
      ;; Visiting the document made its buffer current; point stays on its row in the binder.
      (with-current-buffer (carrel--tree-buffer carrel-test--conn)
        (should (equal (plist-get (carrel--node-at-point) :uri) (carrel--path-to-uri compiled)))))))

(ert-deftest carrel-test-compile-own-recipe ()
  "C offers the project's own recipes after its type's, by their titles, and compiles one."
  (carrel-test--with-library
    (carrel-test--story)
    (make-directory (carrel-test--path "Story" ".carrel" "recipes") t)
    (write-region "{\"title\":\"Beta readers\",\"format\":\"markdown\",\"fileTitles\":true}" nil
                  (carrel-test--path "Story" ".carrel" "recipes" "beta.json"))
    (carrel-test--goto "Story" "Draft" "Opening.md")
    (let* ((compiled (carrel-test--path "Story" "Compiled" "Story (beta).md"))
           (sent (carrel-test--recording
                   (carrel-test--answering '("Beta readers" "Markdown" quit)
                     (carrel-test--press "C")))))
      (should (equal (carrel-test--asked "Recipe: ") '("Standard manuscript" "Beta readers")))
      (should (equal (car (carrel-test--asked "Format: ")) "Markdown"))
      (should (equal (carrel-test--commands-sent sent "carrel.compile")
                     (list (list :projectUri (carrel--path-to-uri (carrel-test--path "Story"))
                                 :recipe "beta" :format "markdown"))))
      (should (file-exists-p compiled))
      (should (string-match-p "# Opening" (with-temp-buffer (insert-file-contents compiled) (buffer-string)))))))

(ert-deftest carrel-test-compile-submit-packet ()
  "After compiling a packet, Submit this packet… submits the pieces compiled with the document."
  (carrel-test--with-library
    (carrel-test--story)
    (carrel-test--run "carrel.newFolder" :parentUri (carrel--path-to-uri (carrel-test--path "Story" "Magazines"))
                      :name "Granta")
    (carrel-test--goto "Story" "Draft" "Opening.md")
    (let* ((story (carrel-test--path "Story"))
           (sent (carrel-test--recording
                   (carrel-test--answering '("Standard manuscript" "Markdown" "Submit this packet…"
                                             "Writing › Story › Magazines › Granta" "2026-11-20")
                     (carrel-test--press "C")))))
      (should (equal (carrel-test--asked "Submit 2 pieces to: ") '("Writing › Story › Magazines › Granta")))
      (should (equal (carrel-test--commands-sent sent "carrel.submit")
                     (list (list :items (vector (carrel--path-to-uri (concat story "/Draft/Notes.md"))
                                                (carrel--path-to-uri (concat story "/Draft/Opening.md")))
                                 :marketUri (carrel--path-to-uri (concat story "/Magazines/Granta"))
                                 :date "2026-11-20"
                                 :packetUri (carrel--path-to-uri (concat story "/Compiled/Story.md"))))))
      (carrel-test--wait (lambda () (string-match-p "Submitted “Notes.md”, “Opening.md” to “Granta” on 2026-11-20\\."
                                                    (carrel-test--messages)))
                         "the server's report"))))

(ert-deftest carrel-test-set-byline ()
  "B asks the author, then the contact lines, each holding what the project has, and sends them."
  (carrel-test--with-library
    (carrel-test--story)
    (carrel-test--goto "Story" "Draft" "Opening.md")
    (let* ((project (carrel--path-to-uri (carrel-test--path "Story")))
           (sent (carrel-test--recording
                   (carrel-test--answering '("Ada Lovelace" " 12 Any Street | ada@example.com ")
                     (carrel-test--press "B")))))
      (should (equal (carrel-test--commands-sent sent "carrel.setByline")
                     (list (list :projectUri project :author "Ada Lovelace"
                                 :contact ["12 Any Street" "ada@example.com"]))))
      (carrel-test--wait (lambda () (string-match-p "^Title page of “Story”: by Ada Lovelace, 2 contact lines\\."
                                                    (carrel-test--messages)))
                         "the server's report")
      (carrel-test--goto "Story" "Draft" "Opening.md")
      (setq sent (carrel-test--recording
                   (carrel-test--answering '("Ada King" "")
                     (carrel-test--press "B"))))
      (should (equal (carrel-test--asked "Author: ") "Ada Lovelace"))
      (should (equal (carrel-test--asked "Contact lines, separated by |: ") "12 Any Street | ada@example.com"))
      (should (equal (carrel-test--commands-sent sent "carrel.setByline")
                     (list (list :projectUri project :author "Ada King" :contact [])))))))

(provide 'carrel-compile-tests)
;;; carrel-compile-tests.el ends here
